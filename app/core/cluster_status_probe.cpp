#include "app/core/cluster_status_probe.h"

#include "app/core/guarded_post.h"
#include "etcdclient/client.h"

#include <chrono>

namespace lockscope {

ClusterStatusProbe::ClusterStatusProbe(const etcd::ClientOptions& options, QObject* parent)
    : QObject(parent) {
    for (const std::string& endpoint : options.endpoints) {
        etcd::ClientOptions single = options;
        single.endpoints = {endpoint};
        auto client = etcd::Client::create(single);
        Target target{QString::fromStdString(endpoint), nullptr, {}};
        if (client)
            target.client = std::move(client.value());
        else
            target.setupError = client.error();
        targets_.push_back(std::move(target));
    }
}

// Out of line: etcd::Client is complete here. Destroying the clients cancels their calls; the
// cancelled replies are then dropped by postGuarded since this object is gone.
ClusterStatusProbe::~ClusterStatusProbe() = default;

void ClusterStatusProbe::refresh() {
    if (busy())
        return;
    round_ = QList<EndpointStatus>(static_cast<qsizetype>(targets_.size()));
    outstanding_ = static_cast<int>(targets_.size());
    if (targets_.empty())
        emit finished(round_);
    for (std::size_t row = 0; row < targets_.size(); ++row) {
        const Target& target = targets_[row];
        if (!target.client) {
            deliver(static_cast<int>(row),
                    EndpointStatus::fromReply(target.endpoint, target.setupError, 0));
            continue;
        }
        const auto sentAt = std::chrono::steady_clock::now();
        target.client->status({}, [guard = QPointer(this), row = static_cast<int>(row),
                                   endpoint = target.endpoint,
                                   sentAt](etcd::Result<etcd::pb::StatusResponse> reply) {
            const std::chrono::duration<double, std::milli> roundTrip =
                std::chrono::steady_clock::now() - sentAt;
            postGuarded(guard, [row, status = EndpointStatus::fromReply(endpoint, reply,
                                                                        roundTrip.count())](
                                   ClusterStatusProbe* self) { self->deliver(row, status); });
        });
    }
}

void ClusterStatusProbe::deliver(int row, const EndpointStatus& status) {
    round_[row] = status;
    if (--outstanding_ == 0)
        emit finished(round_);
}

} // namespace lockscope
