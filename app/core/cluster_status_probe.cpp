#include "app/core/cluster_status_probe.h"

#include "app/core/guarded_post.h"
#include "etcdclient/alarms.h"
#include "etcdclient/client.h"
#include "etcdclient/endpoint.h"

#include <algorithm>
#include <chrono>

namespace lockscope {

ClusterStatusProbe::ClusterStatusProbe(const etcd::ClientOptions& options, QObject* parent)
    : QObject(parent) {
    etcd::ClientOptions wellFormed = options;
    wellFormed.endpoints.clear();
    for (const std::string& endpoint : options.endpoints) {
        Target target{QString::fromStdString(endpoint), std::nullopt, {}};
        etcd::Endpoint parsed;
        std::string problem;
        if (etcd::parseEndpoint(endpoint, parsed, problem)) {
            target.member = wellFormed.endpoints.size();
            wellFormed.endpoints.push_back(endpoint);
        } else {
            target.setupError = etcd::Error(etcd::ErrorCode::InvalidArgument, problem);
        }
        targets_.push_back(std::move(target));
    }
    latest_ = QList<EndpointStatus>(static_cast<qsizetype>(targets_.size()));
    if (wellFormed.endpoints.empty())
        return;
    auto client = etcd::Client::create(wellFormed);
    if (client) {
        ownClient_ = std::move(client).value();
        client_ = ownClient_.get();
        return;
    }
    for (Target& target : targets_) // e.g. unreadable TLS files: no endpoint can be asked
        if (target.member) {
            target.member.reset();
            target.setupError = client.error();
        }
}

ClusterStatusProbe::ClusterStatusProbe(etcd::Client& client, QObject* parent)
    : QObject(parent)
    , client_(&client) {
    const std::vector<std::string>& endpoints = client.options().endpoints;
    for (std::size_t member = 0; member < endpoints.size(); ++member)
        targets_.push_back({QString::fromStdString(endpoints[member]), member, {}});
    latest_ = QList<EndpointStatus>(static_cast<qsizetype>(targets_.size()));
}

// Out of line: etcd::Client is complete here. Destroying the client cancels its calls; the
// cancelled replies are then dropped by postGuarded since this object is gone.
ClusterStatusProbe::~ClusterStatusProbe() = default;

bool ClusterStatusProbe::busy() const {
    return alarmsAsking_ || std::any_of(targets_.begin(), targets_.end(),
                                        [](const Target& target) { return target.asking; });
}

void ClusterStatusProbe::refresh() {
    if (targets_.empty())
        emit updated(latest_);
    if (client_ && !alarmsAsking_) {
        alarmsAsking_ = true;
        client_->alarms({}, [guard = QPointer(this)](etcd::Result<etcd::pb::AlarmResponse> reply) {
            std::optional<std::vector<etcd::RaisedAlarm>> alarms;
            if (reply)
                alarms = etcd::raisedAlarms(*reply);
            postGuarded(guard, [alarms = std::move(alarms)](ClusterStatusProbe* self) {
                self->deliverAlarms(alarms);
            });
        });
    }
    for (std::size_t row = 0; row < targets_.size(); ++row) {
        Target& target = targets_[row];
        if (target.asking)
            continue;
        target.asking = true;
        if (!target.member) {
            deliver(static_cast<int>(row),
                    EndpointStatus::fromReply(target.endpoint, target.setupError, 0));
            continue;
        }
        const auto sentAt = std::chrono::steady_clock::now();
        client_->statusOf(
            *target.member, {},
            [guard = QPointer(this), row = static_cast<int>(row), endpoint = target.endpoint,
             sentAt](etcd::Result<etcd::pb::StatusResponse> reply) {
                const std::chrono::duration<double, std::milli> roundTrip =
                    std::chrono::steady_clock::now() - sentAt;
                postGuarded(guard, [row, status = EndpointStatus::fromReply(endpoint, reply,
                                                                            roundTrip.count())](
                                       ClusterStatusProbe* self) { self->deliver(row, status); });
            });
    }
}

void ClusterStatusProbe::deliver(int row, EndpointStatus status) {
    Target& target = targets_[static_cast<std::size_t>(row)];
    target.asking = false;
    target.answered = true;
    status.alarms = alarmsOf(status);
    latest_[row] = std::move(status);
    if (complete())
        emit updated(latest_);
}

void ClusterStatusProbe::deliverAlarms(std::optional<std::vector<etcd::RaisedAlarm>> alarms) {
    alarmsAsking_ = false;
    alarmsAnswered_ = true;
    if (alarms)
        alarms_ = std::move(*alarms);
    for (EndpointStatus& status : latest_)
        status.alarms = alarmsOf(status);
    if (complete())
        emit updated(latest_);
}

bool ClusterStatusProbe::complete() const {
    return (alarmsAnswered_ || !client_) &&
           std::all_of(targets_.begin(), targets_.end(),
                       [](const Target& each) { return each.answered; });
}

std::vector<etcd::RaisedAlarm> ClusterStatusProbe::alarmsOf(const EndpointStatus& status) const {
    std::vector<etcd::RaisedAlarm> mine;
    if (status.answered())
        std::copy_if(
            alarms_.begin(), alarms_.end(), std::back_inserter(mine),
            [&](const etcd::RaisedAlarm& alarm) { return alarm.memberId == status.memberId; });
    return mine;
}

} // namespace lockscope
