#include "app/core/endpoint_status.h"

#include "rpc.pb.h"

namespace lockscope {

EndpointStatus EndpointStatus::fromReply(const QString& endpoint,
                                         const etcd::Result<etcdserverpb::StatusResponse>& reply,
                                         double roundTripMs) {
    EndpointStatus status;
    status.endpoint = endpoint;
    status.roundTripMs = roundTripMs;
    if (!reply) {
        status.error = QString::fromStdString(reply.error().message);
        status.errorCode = reply.error().code;
        if (status.error.isEmpty())
            status.error = QString::fromLatin1(etcd::errorCodeName(reply.error().code));
        return status;
    }
    status.version = QString::fromStdString(reply->version());
    status.memberId = reply->header().member_id();
    status.leaderId = reply->leader();
    status.revision = reply->header().revision();
    status.raftTerm = reply->raftterm();
    status.raftIndex = reply->raftindex();
    status.dbSize = reply->dbsize();
    status.dbSizeInUse = reply->dbsizeinuse();
    return status;
}

QJsonObject EndpointStatus::toJson() const {
    const auto known = [this](QJsonValue value) { return answered() ? value : QJsonValue(); };
    return {
        {"endpoint", endpoint},
        {"version", known(version)},
        {"member_id", known(hexId(memberId))},
        {"leader", known(hexId(leaderId))},
        {"is_leader", known(isLeader())},
        {"revision", known(revision)},
        {"raft_term", known(static_cast<qint64>(raftTerm))},
        {"raft_index", known(static_cast<qint64>(raftIndex))},
        {"db_size", known(dbSize)},
        {"db_size_in_use", known(dbSizeInUse)},
        {"round_trip_ms", roundTripMs},
        {"error", answered() ? QJsonValue() : QJsonValue(error)},
    };
}

QString EndpointStatus::hexId(quint64 id) {
    return QString::number(id, 16);
}

} // namespace lockscope
