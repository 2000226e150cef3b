#pragma once

#include "app/core/endpoint_status.h"
#include "etcdclient/client_options.h"

#include <QList>
#include <QObject>
#include <memory>
#include <vector>

namespace etcd {
class Client;
}

namespace lockscope {

// Asks every endpoint for its own status. Each endpoint gets a client of its own (no failover),
// so each row is that member's answer and not whichever member a shared client reached.
// Lives on the application's thread; replies hop there from the clients' threads.
class ClusterStatusProbe : public QObject {
    Q_OBJECT
public:
    explicit ClusterStatusProbe(const etcd::ClientOptions& options, QObject* parent = nullptr);
    ~ClusterStatusProbe() override;

    // Starts one Status call per endpoint; finished() follows once each has answered or failed.
    // Ignored while the previous round is still out, so a slow cluster is never piled on.
    void refresh();
    bool busy() const { return outstanding_ > 0; }

signals:
    void finished(const QList<EndpointStatus>& rows);

private:
    struct Target {
        QString endpoint;
        std::unique_ptr<etcd::Client> client;
        etcd::Error setupError; // why no client could be made for this endpoint
    };
    void deliver(int row, const EndpointStatus& status);

    std::vector<Target> targets_;
    QList<EndpointStatus> round_;
    int outstanding_ = 0;
};

} // namespace lockscope
