#include "app/core/lock_actions.h"

#include "app/core/completion_latch.h"
#include "app/core/guarded_post.h"
#include "app/core/key_text.h"
#include "app/core/retry_backoff.h"
#include "etcdclient/client.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/lease_ttl.h"
#include "etcdclient/locks/election.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/session.h"

#include <QTimer>

namespace lockscope {

namespace {
QString message(const etcd::Error& error) {
    return QString::fromStdString(error.message);
}
QString shown(const QByteArray& key) {
    return displayKeyText(key.toStdString());
}
} // namespace

LockActions::LockActions(etcd::Client& client, QObject* parent)
    : QObject(parent)
    , client_(client)
    , outstanding_(CompletionLatch::create()) {}

LockActions::~LockActions() {
    if (!closing_)
        releaseAll(nullptr); // nobody waits for the answers, but every release is sent
}

void LockActions::releaseAll(std::function<void()> released) {
    closing_ = true;
    const QPointer<LockActions> guard(this);
    for (auto it = locks_.begin(); it != locks_.end(); ++it) {
        Held& held = it.value();
        if (held.lock) {
            held.lock->cancel();
            held.lock->unlock([](const etcd::Error&) {});
        }
        if (!held.session)
            continue;
        // The revoke deletes our keys on the server even if the unlock is still in flight; one
        // etcd refused (credentials, permission) or never answered leaves them until the lease
        // expires, which is said: nothing here will ask again.
        held.session->close(
            [guard, name = it.key(), revoked = std::move(held.revoked)](const etcd::Error& closed) {
                if (!closed.ok()) // posted first: the last revoked() lets the owner delete us
                    postGuarded(guard, [name, why = message(closed)](LockActions* self) {
                        emit self->releaseUnconfirmed(name, why);
                    });
                revoked();
            });
        held.session.reset();
    }
    locks_.clear();
    outstanding_->seal(std::move(released));
}

void LockActions::revoke(Held& held) {
    if (!held.session)
        return;
    held.session->close([revoked = std::move(held.revoked)](const etcd::Error&) { revoked(); });
    held.session.reset();
}

void LockActions::acquire(const QString& text, qint64 ttlSeconds, bool tryOnly,
                          LockBackendKind backend) {
    if (tryOnly && backend == LockBackendKind::ServerLock) {
        emit notAcquired(text, tr("etcd's Lock service has no try-lock: choose our Mutex to take "
                                  "a lock only if it is free"));
        return;
    }
    Held held;
    held.ttlSeconds = ttlSeconds;
    held.tryOnly = tryOnly;
    held.backend = backend;
    start(text, std::move(held));
}

void LockActions::campaign(const QString& text, const QString& proposal, qint64 ttlSeconds) {
    Held held;
    held.ttlSeconds = ttlSeconds;
    held.proposal = proposal.toStdString();
    start(text, std::move(held));
}

void LockActions::start(const QString& text, Held held) {
    std::string problem;
    const auto bytes = parseKeyText(text.toStdString(), problem);
    if (bytes)
        problem = etcd::leaseTtlProblem(held.ttlSeconds);
    if (!problem.empty()) {
        emit notAcquired(text, QString::fromStdString(problem));
        return;
    }
    const QString name = shown(QByteArray::fromStdString(*bytes)); // \x41 is A: one spelling
    if (closing_ || name.isEmpty())
        return;
    if (locks_.contains(name)) {
        emit notAcquired(name, tr("this window is already waiting for or holding it"));
        return;
    }
    held.bytes = *bytes;
    held.backoff = std::make_shared<RetryBackoff>();
    OwnLock& own = own_[name];
    own = OwnLock{};
    own.lock = *bytes;
    own.tryOnly = held.tryOnly;
    own.serverLock = held.backend == LockBackendKind::ServerLock;
    own.candidacy = held.proposal.has_value();
    own.proposal = held.proposal.value_or(std::string());
    locks_.insert(name, std::move(held));
    setOwnState(name, OwnLock::State::Waiting);
    emit acquiring(name);
    queue(name);
}

void LockActions::queue(const QString& name) {
    auto it = locks_.find(name);
    it->granting = true;
    auto revoked = outstanding_->add();
    etcd::Session::create(
        client_, it->ttlSeconds, [guard = QPointer(this), name, revoked](auto made) {
            // Not postGuarded: a session granted after this object is gone must still be revoked.
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [guard, name, revoked, made = std::move(made)] {
                    if (!made) {
                        revoked();
                        if (guard)
                            guard->onWaitFailed(name, made.error());
                    } else if (!guard || guard->closing_) {
                        made.value()->close([revoked](const etcd::Error&) { revoked(); });
                    } else {
                        guard->onSession(name, made.value(), revoked);
                    }
                },
                Qt::QueuedConnection);
        });
}

void LockActions::onSession(const QString& name, std::shared_ptr<etcd::Session> session,
                            std::function<void()> revoked) {
    auto it = locks_.find(name);
    if (it == locks_.end() || it->cancelRequested) {
        session->close([revoked](const etcd::Error&) { revoked(); });
        if (it != locks_.end()) {
            forget(name);
            setOwnState(name, OwnLock::State::Cancelled);
            emit notAcquired(name, tr("cancelled"));
        }
        return;
    }
    std::shared_ptr<LockBackend> lock;
    if (it->proposal) {
        it->election = etcd::Election::create(client_, session, it->bytes);
        lock = candidacyBackend(it->election, *it->proposal);
    } else {
        lock = makeLockBackend(it->backend, client_, session, it->bytes);
    }
    it->granting = false;
    it->queued = true;
    it->session = session;
    it->lock = lock;
    it->revoked = std::move(revoked);
    OwnLock& own = own_[name];
    // Our key's name is known before it exists: <name>/<lease id in hex>, for every backend.
    own.key = QByteArray::fromStdString(it->bytes + "/" + etcd::leaseHex(session->leaseId()));
    own.lease = session->leaseId();
    const bool retried = !own.detail.isEmpty(); // "retrying in …" is over: queued again
    own.detail.clear();
    emit ownLockChanged(name);
    if (retried)
        emit acquiring(name);
    const QPointer<LockActions> guard(this);
    lock->onLost([guard, name, lostLock = lock.get()](const etcd::Error& error) {
        postGuarded(guard, [name, lostLock, reason = message(error)](LockActions* self) {
            self->onLost(name, lostLock, reason);
        });
    });
    // Ok once held; otherwise why not.
    auto finish = [guard, name, lock](const etcd::Error& error) {
        postGuarded(guard, [name, error, lock, key = QByteArray::fromStdString(lock->key()),
                            token = lock->fencingToken()](LockActions* self) {
            auto it = self->locks_.find(name);
            if (it == self->locks_.end() || it->lock != lock)
                return; // released or cancelled meanwhile
            if (error.ok()) {
                self->own_[name].fencingToken = token;
                self->setOwnState(name, OwnLock::State::Held);
                emit self->acquired(name, key, token);
            } else {
                self->onWaitFailed(name, error);
            }
        });
    };
    if (it->tryOnly) {
        lock->tryLock([finish, name](etcd::Result<bool> tried) {
            if (!tried)
                finish(tried.error());
            else if (tried.value())
                finish({});
            else
                finish(etcd::Error(etcd::ErrorCode::FailedPrecondition,
                                   tr("%1 is held by someone else").arg(name).toStdString()));
        });
    } else {
        lock->lock(finish);
    }
}

void LockActions::onWaitFailed(const QString& name, const etcd::Error& error) {
    auto it = locks_.find(name);
    if (it == locks_.end() || closing_)
        return;
    // Only a wait that once had its place in the queue comes back: a cluster that never
    // answered, a refusal or the user's cancel end it.
    const bool again =
        it->queued && !it->tryOnly && !it->cancelRequested && RetryBackoff::worthRetrying(error);
    it->lock.reset();
    it->election.reset();
    it->granting = false;
    revoke(*it);
    if (!again) {
        const bool cancelled = it->cancelRequested || error.code == etcd::ErrorCode::Cancelled;
        const bool foundHeld = it->tryOnly && error.code == etcd::ErrorCode::FailedPrecondition;
        forget(name);
        setOwnState(name, cancelled ? OwnLock::State::Cancelled : OwnLock::State::NotAcquired,
                    cancelled ? QString() : message(error));
        emit notAcquired(name, message(error));
        if (!cancelled && !foundHeld)
            emit acquireFailed(name, message(error));
        return;
    }
    const auto backoff = it->backoff;
    const auto delay = backoff->next();
    setOwnState(name, OwnLock::State::Waiting,
                tr("retrying in %1 s (attempt %2): %3")
                    .arg(static_cast<double>(delay.count()) / 1000.0, 0, 'f', 1)
                    .arg(backoff->attempts())
                    .arg(message(error)));
    emit retrying(name, backoff->attempts(), static_cast<double>(delay.count()) / 1000.0,
                  message(error));
    QTimer::singleShot(delay, this, [this, name, backoff] {
        auto it = locks_.find(name);
        if (it != locks_.end() && it->backoff == backoff && !closing_)
            queue(name); // unless cancelled (or cancelled and acquired anew) meanwhile
    });
}

void LockActions::cancel(const QString& name) {
    auto it = locks_.find(name);
    if (it == locks_.end())
        return;
    if (it->lock) {
        // Said now, before etcd deletes our key: that deletion is ours, not a force release.
        it->cancelRequested = true;
        setOwnState(name, OwnLock::State::Cancelled);
        it->lock->cancel(); // lock() then ends with Cancelled, reported as notAcquired
    } else if (it->granting) {
        it->cancelRequested = true; // the session is still being granted
    } else {                        // between two attempts
        forget(name);
        setOwnState(name, OwnLock::State::Cancelled);
        emit notAcquired(name, tr("cancelled"));
    }
}

void LockActions::release(const QString& name) {
    auto it = locks_.find(name);
    if (it == locks_.end())
        return;
    if (!it->lock || !it->lock->held()) {
        cancel(name); // not ours yet: releasing a wait is leaving the queue
        return;
    }
    // The unlock deletes our key, then the revoke ends our lease (and any key on it): either
    // one answered Ok lets the lock go. Until then it is Releasing, not Released.
    const QByteArray key = QByteArray::fromStdString(it->lock->key());
    it->lock->unlock([guard = QPointer(this), name, key, session = it->session,
                      revoked = it->revoked](const etcd::Error& unlocked) {
        session->close([guard, name, key, session, revoked, unlocked](const etcd::Error& closed) {
            revoked();
            postGuarded(guard, [name, key, session,
                                answer = unlocked.ok() ? unlocked : closed](LockActions* self) {
                self->onReleaseAnswered(name, key, session, std::make_shared<RetryBackoff>(),
                                        answer);
            });
        });
    });
    forget(name);
    setOwnState(name, OwnLock::State::Releasing);
}

void LockActions::onReleaseAnswered(const QString& name, const QByteArray& key,
                                    std::shared_ptr<etcd::Session> session,
                                    std::shared_ptr<RetryBackoff> backoff,
                                    const etcd::Error& error) {
    // The name may have been acquired anew meanwhile: then this release's news is not its state.
    const auto own = own_.constFind(name);
    const bool shown =
        own != own_.constEnd() && own->state == OwnLock::State::Releasing && own->key == key;
    if (error.ok()) {
        if (shown) {
            setOwnState(name, OwnLock::State::Released);
            emit released(name);
        }
        return;
    }
    if (closing_)
        return; // the window is going: the lease, no longer kept alive, expires on its own
    // Our key may still hold the lock (etcd down, or refusing us): ask again until etcd revokes
    // the lease or says it is gone. Keepalives have stopped, so it also expires within its TTL.
    const auto delay = backoff->next();
    if (shown) {
        // Releasing since the user asked: only the detail moves with each attempt.
        OwnLock& releasing = own_[name];
        releasing.detail = tr("not confirmed: %1; asking etcd again in %2 s (attempt %3); without "
                              "keepalives the lease also expires within its TTL (%4 s)")
                               .arg(message(error))
                               .arg(static_cast<double>(delay.count()) / 1000.0, 0, 'f', 1)
                               .arg(backoff->attempts())
                               .arg(session->ttlSeconds());
        emit ownLockChanged(name);
        if (backoff->attempts() == 1)
            emit releaseUnconfirmed(name, message(error));
    }
    QTimer::singleShot(delay, this, [this, name, key, session, backoff] {
        if (closing_)
            return;
        session->close(
            [guard = QPointer(this), name, key, session, backoff](const etcd::Error& closed) {
                postGuarded(guard, [name, key, session, backoff, closed](LockActions* self) {
                    self->onReleaseAnswered(name, key, session, backoff, closed);
                });
            });
    });
}

void LockActions::onLost(const QString& name, const LockBackend* lock, const QString& reason) {
    auto it = locks_.find(name);
    if (it == locks_.end() || it->lock.get() != lock)
        return; // released, or acquired anew, meanwhile
    // Nothing of this hold is ours any more: let go of the session (a key deleted by hand
    // leaves the lease alive), so the name can be acquired afresh.
    const bool paused = it->session && it->session->paused();
    it->lock.reset();
    it->election.reset();
    revoke(*it);
    forget(name);
    // The session only knows no member renewed the lease; we know why: we stopped asking.
    const QString why =
        paused ? tr("lost while its keepalive was paused, as asked: %1").arg(reason) : reason;
    setOwnState(name, OwnLock::State::Lost, why);
    emit lost(name, why);
}

const OwnLock* LockActions::ownLock(const QString& name) const {
    auto it = own_.find(name);
    return it == own_.end() ? nullptr : &*it;
}

void LockActions::setOwnState(const QString& name, OwnLock::State state, const QString& detail) {
    OwnLock& own = own_[name];
    own.state = state;
    own.detail = detail;
    own.since = QDateTime::currentDateTime();
    emit ownLockChanged(name);
}

void LockActions::setPaused(const QString& name, bool paused) {
    auto it = locks_.find(name);
    if (it == locks_.end() || !it->session)
        return;
    it->session->setPaused(paused);
    own_[name].paused = paused;
    emit ownLockChanged(name);
}

bool LockActions::paused(const QString& name) const {
    auto it = locks_.find(name);
    return it != locks_.end() && it->session && it->session->paused();
}

QString LockActions::keyOf(const QString& name) const {
    auto it = locks_.find(name);
    return it != locks_.end() && it->lock ? shown(QByteArray::fromStdString(it->lock->key()))
                                          : QString();
}

void LockActions::proclaim(const QString& name, const QString& proposal) {
    auto it = locks_.find(name);
    if (it == locks_.end() || !it->election || !it->election->leader()) {
        emit proclaimFailed(name, tr("this window does not lead that election"));
        return;
    }
    it->election->proclaim(proposal.toStdString(), [guard = QPointer(this), name, proposal,
                                                    election = it->election](auto written) {
        postGuarded(guard, [name, proposal, election, written](LockActions* self) {
            if (!written) {
                emit self->proclaimFailed(name, message(written.error()));
                return;
            }
            if (!written.value()) {
                emit self->proclaimFailed(name, tr("we no longer lead it"));
                return;
            }
            auto it = self->locks_.find(name);
            if (it != self->locks_.end() && it->election == election) {
                self->own_[name].proposal = proposal.toStdString();
                emit self->ownLockChanged(name);
            }
            emit self->proclaimed(name, proposal);
        });
    });
}

void LockActions::forget(const QString& name) {
    locks_.remove(name);
}

void LockActions::forceRelease(const ForceReleasePlan& plan) {
    emit forceReleasing(plan.key, plan.lease);
    auto done = [guard = QPointer(this), key = plan.key](const QString& outcome) {
        postGuarded(guard,
                    [key, outcome](LockActions* self) { emit self->forceReleased(key, outcome); });
    };
    if (plan.lease != 0) {
        etcd::pb::LeaseRevokeRequest revoke;
        revoke.set_id(plan.lease);
        client_.leaseRevoke(revoke, [done](auto revoked) {
            done(revoked ? tr("lease revoked") : message(revoked.error()));
        });
        return;
    }
    // Only the incarnation the operator saw: a key re-created since is left alone.
    etcd::guardedDelete(
        client_, plan.key.toStdString(), plan.createRevision, [done](etcd::Result<bool> deleted) {
            if (!deleted)
                done(message(deleted.error()));
            else
                done(*deleted ? tr("key deleted")
                              : tr("not deleted: the key changed since you looked"));
        });
}

} // namespace lockscope
