#pragma once

#include <QObject>
#include <QSet>
#include <QString>
#include <memory>

namespace etcd {
class LocalCluster;
}

namespace lockscope {

// A throwaway etcd (one member, or a small cluster to show failover) on free loopback ports,
// for trying LockScope without a cluster.
// It is stopped and its data directory removed when this object goes (or, if it is still
// starting then, as soon as its start-up check returns).
class Sandbox : public QObject {
    Q_OBJECT
public:
    // `etcdProgram` is a path or a name looked up on PATH.
    explicit Sandbox(QString etcdProgram = "etcd", int members = 1, QObject* parent = nullptr);
    ~Sandbox() override;

    // Starts etcd from this (the GUI) thread, since etcd dies with the thread that started it,
    // and waits for it to be ready on a pool thread. Then ready() or failed().
    void start();
    QString dataDirectory() const;
    int members() const { return members_; }
    QStringList endpoints() const; // empty until started
    // False until ready() and while the member is being stopped.
    bool memberRunning(int member) const;
    // Stops a member (SIGTERM, waited for on a pool thread) or starts it again (from this
    // thread, like start()), so failover can be shown live. Both do nothing while the member is
    // being stopped.
    void stopMember(int member);
    void restartMember(int member);

signals:
    void ready(const QStringList& endpoints);
    void failed(const QString& message);
    void membersChanged();

private:
    void fail(const QString& reason);

    QString etcdProgram_;
    int members_;
    // Shared with the start-up check, which may outlive this object by a moment.
    std::shared_ptr<etcd::LocalCluster> cluster_;
    // This (the GUI) thread looks at a member's process only while no pool thread handles it:
    // not before the start-up check is done, nor while the member is being stopped.
    bool ready_ = false;
    QSet<int> stopping_;
};

} // namespace lockscope
