#pragma once

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

    bool answered() const { return error.isEmpty(); }
    bool isLeader() const { return answered() && memberId != 0 && memberId == leaderId; }

    static EndpointStatus fromReply(const QString& endpoint,
                                    const etcd::Result<etcdserverpb::StatusResponse>& reply,
                                    double roundTripMs);
    // Stable snake_case keys. Ids are hex strings (as etcdctl prints them), since a 64-bit id
    // does not survive a JSON reader's doubles. Fields a failed endpoint could not tell are null.
    void writeJson(JsonWriter& json) const;
    // Lowercase hex without padding, as etcdctl prints member ids.
    static QString hexId(quint64 id);

    bool operator==(const EndpointStatus&) const = default;
};

} // namespace lockscope
