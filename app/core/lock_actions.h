#pragma once

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>
#include <memory>
#include <string>

namespace etcd {
class Client;
class Mutex;
class Session;
} // namespace etcd

namespace lockscope {

// What a force release will do, spelled out for the confirmation dialog.
struct ForceReleasePlan {
    QByteArray key;
    qint64 lease = 0;
    qint64 createRevision = 0;
    QString description; // "Revoke lease …: deletes …, whose holder …"
};

// The locks this window takes and gives back by hand, and force releases of other holders.
// Every reply from etcd comes back on the GUI thread as a signal; a late reply after this
// object is gone is dropped. Destroying it releases what it holds and revokes its sessions.
class LockActions : public QObject {
    Q_OBJECT
public:
    explicit LockActions(etcd::Client& client, QObject* parent = nullptr);
    ~LockActions() override;

    // Lock names here are text as displayKey writes them, so any bytes can be named; acquire
    // also takes other spellings (\x41 for A) and goes on under the displayKey one. Queues for
    // the lock parseKeyText(text) with a new session of `ttlSeconds` (or, with tryOnly, takes
    // it only if free). Progress: acquiring, then acquired or notAcquired; a bad escape or a
    // TTL etcd would refuse is notAcquired at once, before any call.
    void acquire(const QString& text, qint64 ttlSeconds, bool tryOnly);
    void cancel(const QString& name);
    void release(const QString& name);
    // Stops (or resumes) keepalives of a lock we hold: the lease expires and the next waiter
    // takes over, live.
    void setPaused(const QString& name, bool paused);

    bool busy(const QString& name) const { return locks_.contains(name); }
    bool paused(const QString& name) const;
    QString keyOf(const QString& name) const;

    // A key without a lease is deleted (only that incarnation); one with a lease has the lease
    // revoked, which deletes every key attached to it.
    static ForceReleasePlan planForceRelease(const QByteArray& key, qint64 lease,
                                             qint64 createRevision, const QString& nextHolder);
    void forceRelease(const ForceReleasePlan& plan);

signals:
    void acquiring(const QString& name);
    void acquired(const QString& name, const QByteArray& key, qint64 fencingToken);
    void notAcquired(const QString& name, const QString& reason);
    void released(const QString& name);
    void lost(const QString& name, const QString& reason);
    void forceReleased(const QByteArray& key, const QString& outcome);

private:
    struct Held {
        std::shared_ptr<etcd::Session> session;
        std::shared_ptr<etcd::Mutex> mutex;
        bool cancelRequested = false;
    };
    void onSession(const QString& name, const std::string& bytes, bool tryOnly,
                   std::shared_ptr<etcd::Session> session);
    void forget(const QString& name);

    etcd::Client& client_;
    QHash<QString, Held> locks_;
};

} // namespace lockscope
