#pragma once

#include "app/core/endpoint_status.h"
#include "etcdclient/client_options.h"

#include <QHash>
#include <QObject>
#include <memory>

namespace etcd {
class Client;
}

namespace lockscope {

class LatencyFeed;

// The connection the window works through: one client over all endpoints, failing over between
// them as etcdctl does. Each refresh asks it for Status (which member answered, leader, revision,
// term) and MemberList (member names); the round trips of its calls feed latencySampled().
class ClusterSession : public QObject {
    Q_OBJECT
public:
    explicit ClusterSession(const etcd::ClientOptions& options, QObject* parent = nullptr);
    ~ClusterSession() override;

    // Skips whichever call of the previous refresh is still out.
    void refresh();

    // Null when the client could not be set up (refresh() then reports why). For monitors and
    // actions that share the connection; they must be stopped before the session goes.
    etcd::Client* client() const { return client_.get(); }
    const etcd::ClientOptions& options() const { return options_; }

signals:
    // `status.endpoint` is the member the client used; `status.error` is set when none answered.
    void statusChanged(const EndpointStatus& status);
    void memberNamesChanged(const QHash<quint64, QString>& namesById);
    void latencySampled(const QString& method, double unixSeconds, double milliseconds);

private:
    void refreshStatus();
    void refreshMembers();

    const etcd::ClientOptions options_;
    std::unique_ptr<etcd::Client> client_;
    etcd::Error setupError_;
    // Declared after client_ so it is destroyed first: it listens to the client's recorder.
    std::unique_ptr<LatencyFeed> latencyFeed_;
    bool statusInFlight_ = false;
    bool membersInFlight_ = false;
};

} // namespace lockscope
