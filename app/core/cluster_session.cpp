#include "app/core/cluster_session.h"

#include "app/core/guarded_post.h"
#include "app/core/latency_feed.h"
#include "etcdclient/client.h"

#include <chrono>

namespace lockscope {

ClusterSession::ClusterSession(const etcd::ClientOptions& options, QObject* parent)
    : QObject(parent)
    , options_(options) {
    auto client = etcd::Client::create(options);
    if (!client) {
        setupError_ = client.error();
        return;
    }
    client_ = std::move(client.value());
    latencyFeed_ = std::make_unique<LatencyFeed>(client_->latency());
    connect(latencyFeed_.get(), &LatencyFeed::sampled, this, &ClusterSession::latencySampled);
}

ClusterSession::~ClusterSession() = default;

void ClusterSession::refresh() {
    if (!client_) {
        emit statusChanged(EndpointStatus::fromReply({}, setupError_, 0));
        return;
    }
    refreshStatus();
    refreshMembers();
}

void ClusterSession::refreshStatus() {
    if (statusInFlight_)
        return;
    statusInFlight_ = true;
    const auto sentAt = std::chrono::steady_clock::now();
    client_->status({}, [guard = QPointer(this),
                         sentAt](etcd::Result<etcd::pb::StatusResponse> reply) {
        const std::chrono::duration<double, std::milli> roundTrip =
            std::chrono::steady_clock::now() - sentAt;
        postGuarded(guard, [reply = std::move(reply), roundTrip](ClusterSession* self) {
            self->statusInFlight_ = false;
            const auto endpoint = QString::fromStdString(self->client_->currentEndpoint());
            emit self->statusChanged(EndpointStatus::fromReply(endpoint, reply, roundTrip.count()));
        });
    });
}

void ClusterSession::refreshMembers() {
    if (membersInFlight_)
        return;
    membersInFlight_ = true;
    client_->memberList(
        {}, [guard = QPointer(this)](etcd::Result<etcd::pb::MemberListResponse> reply) {
            QHash<quint64, QString> names;
            if (reply)
                for (const auto& member : reply->members())
                    names.insert(member.id(), QString::fromStdString(member.name()));
            postGuarded(guard, [names, answered = reply.ok()](ClusterSession* self) {
                self->membersInFlight_ = false;
                if (answered)
                    emit self->memberNamesChanged(names);
            });
        });
}

} // namespace lockscope
