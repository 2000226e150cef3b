#pragma once

#include "app/core/lock_backend.h"
#include "app/core/own_lock.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace etcd {
class Client;
class Election;
class Session;
struct Error;
} // namespace etcd

namespace lockscope {

class CompletionLatch;
class RetryBackoff;

// The key a force release acts on, exactly as the confirmation named it
// (force_release_standing.h says where it stands and what the release will do).
struct ForceReleasePlan {
    QByteArray key;
    qint64 lease = 0;
    qint64 createRevision = 0;
};

// The locks this window takes and gives back by hand, and force releases of other holders.
// Every reply from etcd comes back on the GUI thread as a signal; a late reply after this
// object is gone is dropped. A wait whose session is lost (or that fails with a transient
// error) queues again with a new session after a RetryBackoff delay, saying so (retrying); a
// held lock that is lost is reported (lost), never taken again silently: its session is let go
// and the name is free to be acquired anew. Each lock's state (OwnLock) stays readable after it
// ends, so the window can say how it ended.
// releaseAll() lets go of everything and says when etcd has answered, so the client can go;
// destroying this object without it still releases, without waiting.
class LockActions : public QObject {
    Q_OBJECT
public:
    explicit LockActions(etcd::Client& client, QObject* parent = nullptr);
    ~LockActions() override;

    // Lock names here are text as displayKey writes them, so any bytes can be named; acquire
    // also takes other spellings (\x41 for A) and goes on under the displayKey one. Queues for
    // the lock parseKeyText(text) with a new session of `ttlSeconds` (or, with tryOnly, takes
    // it only if free). Progress: acquiring, retrying while a failed wait queues again, then
    // acquired or notAcquired; a bad escape or a TTL etcd would refuse is notAcquired at once,
    // before any call. `backend` takes it: our Mutex, or etcd's Lock service (which has no
    // try-lock: tryOnly with it is notAcquired at once).
    void acquire(const QString& text, qint64 ttlSeconds, bool tryOnly,
                 LockBackendKind backend = LockBackendKind::Mutex);
    // Campaigns in the election `text` with `proposal`, as `etcdctl elect` does: a candidacy is
    // an own lock (OwnLock::candidacy) that is held while we lead, with the same signals,
    // retries and loss reports; release() resigns (or withdraws a waiting candidacy).
    void campaign(const QString& text, const QString& proposal, qint64 ttlSeconds);
    // Puts `proposal` as our value in election `name` while we lead it: proclaimed, or
    // proclaimFailed with why not.
    void proclaim(const QString& name, const QString& proposal);
    void cancel(const QString& name);
    // Lets go of a held lock; a wait is cancelled instead (cancel()).
    void release(const QString& name);
    // Stops (or resumes) keepalives of a lock we hold: the lease expires and the next waiter
    // takes over, live.
    void setPaused(const QString& name, bool paused);

    // Waiting for or holding `name` now.
    bool busy(const QString& name) const { return locks_.contains(name); }
    // Where `name` stands, or how it last ended; null if this window never took it.
    const OwnLock* ownLock(const QString& name) const;
    bool paused(const QString& name) const;
    QString keyOf(const QString& name) const;

    // A key without a lease is deleted (only that incarnation); one with a lease has the lease
    // revoked, which deletes every key attached to it: the plan's, whatever holds the lock now.
    void forceRelease(const ForceReleasePlan& plan);

    // Cancels every wait, unlocks every lock and revokes every session, also those still being
    // granted; nothing is acquired afterwards. `released` runs once etcd has answered each (every
    // call is bounded by the command timeout), on the client's thread or, when nothing was
    // pending, at once: then the client may be destroyed.
    void releaseAll(std::function<void()> released);

signals:
    void acquiring(const QString& name);
    void acquired(const QString& name, const QByteArray& key, qint64 fencingToken);
    void notAcquired(const QString& name, const QString& reason);
    // After notAcquired, when an error ended it (etcd refused, or was not reached), not the
    // user's cancel or a try that found the lock held.
    void acquireFailed(const QString& name, const QString& reason);
    // A wait failed; the lock is queued for again after `delaySeconds` (attempt counts failures).
    void retrying(const QString& name, int attempt, double delaySeconds, const QString& reason);
    // etcd confirmed a release (Releasing until then).
    void released(const QString& name);
    // etcd did not confirm a release: it is asked again, with a backoff, until it does (the
    // lock stays Releasing, its detail saying why). After releaseAll() it is not asked again.
    void releaseUnconfirmed(const QString& name, const QString& reason);
    void lost(const QString& name, const QString& reason);
    void proclaimed(const QString& name, const QString& proposal);
    void proclaimFailed(const QString& name, const QString& reason);
    // Just before a force release is sent: whoever watches the keys can name their deletion.
    void forceReleasing(const QByteArray& key, qint64 lease);
    void forceReleased(const QByteArray& key, const QString& outcome);
    // After every change of ownLock(name).
    void ownLockChanged(const QString& name);

private:
    struct Held {
        std::shared_ptr<etcd::Session> session;
        std::shared_ptr<LockBackend> lock;
        std::shared_ptr<etcd::Election> election; // a candidacy's, for proclaim
        std::function<void()> revoked; // tells outstanding_ the session's revoke was answered
        std::string bytes;             // the lock's exact name
        qint64 ttlSeconds = 0;
        bool tryOnly = false;
        LockBackendKind backend = LockBackendKind::Mutex;
        std::optional<std::string> proposal; // a candidacy's
        bool granting = false;               // a session is being granted
        bool queued = false;                 // an attempt had its place in the queue
        bool cancelRequested = false;        // while granting
        std::shared_ptr<RetryBackoff> backoff;
    };
    // Grants a session for `name`'s next attempt.
    void queue(const QString& name);
    void onSession(const QString& name, std::shared_ptr<etcd::Session> session,
                   std::function<void()> revoked);
    void onWaitFailed(const QString& name, const etcd::Error& error);
    // Revokes `held`'s session (if any), counted in outstanding_.
    static void revoke(Held& held);
    void forget(const QString& name);
    // Moves `name`'s OwnLock to `state` (now) and says so.
    void setOwnState(const QString& name, OwnLock::State state, const QString& detail = {});
    void onLost(const QString& name, const LockBackend* lock, const QString& reason);
    // What etcd said to a release of `name`'s hold on `key` (Ok if the unlock or the revoke
    // worked); asks again after `backoff`'s next delay when neither did.
    void onReleaseAnswered(const QString& name, const QByteArray& key,
                           std::shared_ptr<etcd::Session> session,
                           std::shared_ptr<RetryBackoff> backoff, const etcd::Error& error);
    // acquire() and campaign(): starts `held` under the name its text spells.
    void start(const QString& text, Held held);

    etcd::Client& client_;
    QHash<QString, Held> locks_;
    QHash<QString, OwnLock> own_;
    // Every session granted or being granted until its revoke is answered: releaseAll waits
    // for it. Shared with the callbacks, which may outlive this object.
    std::shared_ptr<CompletionLatch> outstanding_;
    bool closing_ = false;
};

} // namespace lockscope
