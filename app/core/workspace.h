#pragma once

#include "etcdclient/client_options.h"

#include <QObject>
#include <QTimer>
#include <chrono>
#include <memory>

namespace etcd {
class Client;
}

namespace lockscope {

namespace lab {
class ContentionLab;
struct LabOptions;
} // namespace lab

class ClusterSession;
class ClusterStatusProbe;
class LockActions;
class LockWatch;

// Everything one connection runs, and the one order it stops in. A Workspace owns the client
// (inside its ClusterSession), the LockWatch over it, LockActions (the locks we take by hand),
// the contention lab and the per-endpoint ClusterStatusProbe. end() stops them in this order:
//   1. our locks and the lab's sessions are released and their leases revoked, through the
//      client (the refreshes stop too);
//   2. once etcd has answered each of those, or the client's command timeout has passed, the
//      streams stop: the lock watch, the lab and our actions, the status probe;
//   3. then the client is destroyed and finished() is emitted.
// Nothing waits: the answers come back as calls queued on the application's thread, and one
// arriving after the Workspace is gone is dropped. Switching connection is ending one
// Workspace and making another.
class Workspace : public QObject {
    Q_OBJECT
public:
    static constexpr int RefreshIntervalMs = 1000;

    explicit Workspace(const etcd::ClientOptions& options, QObject* parent = nullptr);
    // Destroyed before finished(): ends and waits for it (see endAndWait).
    ~Workspace() override;

    const etcd::ClientOptions& options() const { return options_; }
    // Null when the client could not be set up (the session's status says why), and after the
    // end.
    etcd::Client* client() const;
    ClusterSession* session() const { return session_; }
    ClusterStatusProbe* probe() const { return probe_; }
    LockWatch* lockWatch() const { return lockWatch_; }
    // Null without a client, and after the end.
    LockActions* lockActions() const { return lockActions_; }

    // Asks the session and every endpoint for their status now and every RefreshIntervalMs.
    void startRefreshing();

    // Runs the contention lab through this client (a running one is stopped first); nothing
    // happens without a client or once ending.
    void startLab(const lab::LabOptions& options, bool once);
    void stopLab();
    // The lab last started; its report stays readable after it stops (null before any).
    const std::shared_ptr<lab::ContentionLab>& lab() const { return lab_; }

    // Starts the end described above; later calls do nothing.
    void end();
    // For an owner being destroyed, with no event loop left to deliver finished(): ends, and
    // runs etcd's queued answers here until finished(), at most until the deadline.
    void endAndWait();
    bool ending() const { return ending_; }
    bool isFinished() const { return finished_; }
    // When step 2 starts even if etcd has not answered: the client's command timeout after end().
    std::chrono::steady_clock::time_point deadline() const { return deadline_; }

signals:
    void finished();

private:
    void stopStreamsAndClient();

    const etcd::ClientOptions options_;
    ClusterSession* session_;
    LockWatch* lockWatch_;
    LockActions* lockActions_ = nullptr;
    ClusterStatusProbe* probe_;
    std::shared_ptr<lab::ContentionLab> lab_;
    QTimer refreshTimer_;
    std::chrono::steady_clock::time_point deadline_;
    bool ending_ = false;
    bool finished_ = false;
};

} // namespace lockscope
