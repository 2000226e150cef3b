#pragma once

#include "etcdclient/alarms.h"
#include "etcdclient/result.h"

#include <QString>

namespace etcdserverpb {
class StatusResponse;
}

namespace lockscope {

class JsonWriter;

// One member's answer to a Status call, as plain values.
struct EndpointStatus {
    QString endpoint;
    QString error;                                   // empty when the member answered
    etcd::ErrorCode errorCode = etcd::ErrorCode::Ok; // what kind of failure `error` is
    QString version;
    quint64 memberId = 0;
    quint64 leaderId = 0;
    qint64 revision = 0;
    quint64 raftTerm = 0;
    quint64 raftIndex = 0;
    qint64 dbSize = 0;
    qint64 dbSizeInUse = 0;
    double roundTripMs = 0;
    // The alarms etcd has raised on this member (NOSPACE: every write is refused), as the
    // Alarm call answered; ClusterStatusProbe fills them in.
    std::vector<etcd::RaisedAlarm> alarms;

    bool answered() const { return error.isEmpty(); }
    // What is wrong with the member: its failure, else its alarms with their cure, else "".
    QString problem() const;
    bool isLeader() const { return answered() && memberId != 0 && memberId == leaderId; }

    static EndpointStatus fromReply(const QString& endpoint,
                                    const etcd::Result<etcdserverpb::StatusResponse>& reply,
                                    double roundTripMs);
    // Stable snake_case keys. Ids are hex strings (as etcdctl prints them), since a 64-bit id
    // does not survive a JSON reader's doubles. Fields a failed endpoint could not tell are null.
    // "error" is problem(); "alarms" the names of the alarms raised ("NOSPACE").
    void writeJson(JsonWriter& json) const;
    // Lowercase hex without padding, as etcdctl prints member ids.
    static QString hexId(quint64 id);

    bool operator==(const EndpointStatus&) const = default;
};

} // namespace lockscope
