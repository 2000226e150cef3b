#pragma once

#include "app/core/endpoint_status.h"
#include "etcdclient/client_options.h"

#include <QList>
#include <QObject>
#include <memory>
#include <optional>
#include <vector>

namespace etcd {
class Client;
}

namespace lockscope {

// Asks every endpoint for its own status, through one client (one thread) for all of them, the
// connection's own when it has one (a Workspace: one client per connection), else one of its own
// (lockscopectl status, where a malformed endpoint must not keep the others from being asked):
// each call goes to its member alone (Client::statusOf, no failover), so each row is that
// member's answer and not whichever member answered first. A malformed endpoint gets its own
// row's error and does not stop the others. Each row moves on its own: a member that hangs
// until the deadline holds back only its own row, not the others'. etcd's alarms (NOSPACE, ...)
// are asked once per refresh of any member and each row gets its member's. Lives on the
// application's thread; replies hop there from the client's thread.
class ClusterStatusProbe : public QObject {
    Q_OBJECT
public:
    // With a client of its own over the well-formed endpoints of `options`.
    explicit ClusterStatusProbe(const etcd::ClientOptions& options, QObject* parent = nullptr);
    // Through `client`, which must outlive the probe: its calls' late answers are dropped.
    explicit ClusterStatusProbe(etcd::Client& client, QObject* parent = nullptr);
    ~ClusterStatusProbe() override;

    // Asks each endpoint whose previous call has ended (a slow member is never piled on).
    void refresh();
    // A call is still out.
    bool busy() const;
    // The client it asks through (null when none could be set up).
    const etcd::Client* client() const { return client_; }

signals:
    // Each endpoint's latest answer or failure: first once every endpoint has had one, then
    // after each new one.
    void updated(const QList<EndpointStatus>& rows);

private:
    struct Target {
        QString endpoint;
        std::optional<std::size_t> member; // its index among the client's endpoints
        etcd::Error setupError;            // why it cannot be asked, when it has no member
        bool asking = false;               // its call is out
        bool answered = false;             // it has had an answer or failure since the start
    };
    void deliver(int row, EndpointStatus status);
    // The alarms raised, or nothing when the call failed (the last ones known stay).
    void deliverAlarms(std::optional<std::vector<etcd::RaisedAlarm>> alarms);
    // Every endpoint and the alarms have had an answer or failure since the start.
    bool complete() const;
    std::vector<etcd::RaisedAlarm> alarmsOf(const EndpointStatus& status) const;

    std::unique_ptr<etcd::Client> ownClient_; // when it was given none
    etcd::Client* client_ = nullptr;          // the one it asks through
    std::vector<Target> targets_;
    QList<EndpointStatus> latest_;
    bool alarmsAsking_ = false;
    bool alarmsAnswered_ = false;
    std::vector<etcd::RaisedAlarm> alarms_;
};

} // namespace lockscope
