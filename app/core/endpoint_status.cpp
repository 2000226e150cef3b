#include "app/core/endpoint_status.h"

#include "app/core/json_writer.h"
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

void EndpointStatus::writeJson(JsonWriter& json) const {
    json.beginObject().key("endpoint").value(endpoint.toStdString());
    const auto known = [&](const char* name, auto value) {
        json.key(name);
        answered() ? json.value(value) : json.null();
    };
    known("version", version.toStdString());
    known("member_id", hexId(memberId).toStdString());
    known("leader", hexId(leaderId).toStdString());
    known("is_leader", isLeader());
    known("revision", static_cast<int64_t>(revision));
    known("raft_term", static_cast<int64_t>(raftTerm));
    known("raft_index", static_cast<int64_t>(raftIndex));
    known("db_size", static_cast<int64_t>(dbSize));
    known("db_size_in_use", static_cast<int64_t>(dbSizeInUse));
    json.key("round_trip_ms").value(roundTripMs).key("alarms");
    if (answered()) {
        json.beginArray();
        for (const etcd::RaisedAlarm& alarm : alarms)
            json.value(etcd::alarmTypeName(alarm.type));
        json.endArray();
    } else {
        json.null();
    }
    json.key("error");
    const QString said = problem();
    said.isEmpty() ? json.null() : json.value(said.toStdString());
    json.endObject();
}

QString EndpointStatus::problem() const {
    if (!answered())
        return error;
    return QString::fromStdString(etcd::describeAlarms(alarms));
}

QString EndpointStatus::hexId(quint64 id) {
    return QString::number(id, 16);
}

} // namespace lockscope
