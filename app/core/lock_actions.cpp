#include "app/core/lock_actions.h"

#include "app/core/guarded_post.h"
#include "app/core/key_text.h"
#include "app/core/lock_json.h"
#include "etcdclient/client.h"
#include "etcdclient/lease_ttl.h"
#include "etcdclient/mutex.h"
#include "etcdclient/session.h"

namespace lockscope {

namespace {
QString message(const etcd::Error& error) {
    return QString::fromStdString(error.message);
}
QString shown(const QByteArray& key) {
    return QString::fromStdString(displayKey(key.toStdString()));
}
} // namespace

LockActions::LockActions(etcd::Client& client, QObject* parent)
    : QObject(parent)
    , client_(client) {}

LockActions::~LockActions() {
    // Unlock and revoke without waiting: revoking the lease deletes our keys on the server
    // even if the unlock is still in flight.
    for (auto& held : locks_) {
        if (held.mutex)
            held.mutex->unlock();
        if (held.session)
            held.session->close();
    }
}

void LockActions::acquire(const QString& text, qint64 ttlSeconds, bool tryOnly) {
    std::string problem;
    const auto bytes = parseKeyText(text.toStdString(), problem);
    if (bytes)
        problem = etcd::leaseTtlProblem(ttlSeconds);
    if (!problem.empty()) {
        emit notAcquired(text, QString::fromStdString(problem));
        return;
    }
    const QString name = shown(QByteArray::fromStdString(*bytes)); // \x41 is A: one spelling
    if (name.isEmpty() || locks_.contains(name))
        return;
    locks_.insert(name, {});
    emit acquiring(name);
    etcd::Session::create(
        client_, ttlSeconds, [guard = QPointer(this), name, bytes = *bytes, tryOnly](auto made) {
            postGuarded(guard, [made = std::move(made), name, bytes, tryOnly](LockActions* self) {
                if (!made) {
                    self->forget(name);
                    emit self->notAcquired(name, message(made.error()));
                    return;
                }
                self->onSession(name, bytes, tryOnly, made.value());
            });
        });
}

void LockActions::onSession(const QString& name, const std::string& bytes, bool tryOnly,
                            std::shared_ptr<etcd::Session> session) {
    auto it = locks_.find(name);
    if (it == locks_.end() || it->cancelRequested) {
        session->close();
        forget(name);
        emit notAcquired(name, tr("cancelled"));
        return;
    }
    auto mutex = etcd::Mutex::create(client_, session, bytes);
    it->session = session;
    it->mutex = mutex;
    const QPointer<LockActions> guard(this);
    mutex->onLost([guard, name](const etcd::Error& error) {
        postGuarded(guard, [name, reason = message(error)](LockActions* self) {
            emit self->lost(name, reason);
        });
    });
    auto report = [guard, name, mutex](bool held, const QString& reason) {
        postGuarded(guard, [name, held, reason, key = QByteArray::fromStdString(mutex->key()),
                            token = mutex->fencingToken()](LockActions* self) {
            if (held) {
                emit self->acquired(name, key, token);
                return;
            }
            self->forget(name);
            emit self->notAcquired(name, reason);
        });
    };
    if (tryOnly) {
        mutex->tryLock([report, name](etcd::Result<bool> tried) {
            if (!tried)
                report(false, message(tried.error()));
            else
                report(tried.value(), tr("%1 is held by someone else").arg(name));
        });
    } else {
        mutex->lock([report](const etcd::Error& error) { report(error.ok(), message(error)); });
    }
}

void LockActions::cancel(const QString& name) {
    auto it = locks_.find(name);
    if (it == locks_.end())
        return;
    if (!it->mutex) {
        it->cancelRequested = true; // the session is still being created
        return;
    }
    it->mutex->cancel(); // lock() then ends with Cancelled, reported as notAcquired
}

void LockActions::release(const QString& name) {
    auto it = locks_.find(name);
    if (it == locks_.end() || !it->mutex)
        return;
    it->mutex->unlock([guard = QPointer(this), name, session = it->session](auto) {
        session->close();
        postGuarded(guard, [name](LockActions* self) { emit self->released(name); });
    });
    forget(name);
}

void LockActions::setPaused(const QString& name, bool paused) {
    auto it = locks_.find(name);
    if (it != locks_.end() && it->session)
        it->session->setPaused(paused);
}

bool LockActions::paused(const QString& name) const {
    auto it = locks_.find(name);
    return it != locks_.end() && it->session && it->session->paused();
}

QString LockActions::keyOf(const QString& name) const {
    auto it = locks_.find(name);
    return it != locks_.end() && it->mutex ? shown(QByteArray::fromStdString(it->mutex->key()))
                                           : QString();
}

void LockActions::forget(const QString& name) {
    locks_.remove(name);
}

ForceReleasePlan LockActions::planForceRelease(const QByteArray& key, qint64 lease,
                                               qint64 createRevision, const QString& nextHolder) {
    ForceReleasePlan plan{key, lease, createRevision, {}};
    const QString next = nextHolder.isEmpty()
                             ? tr("Nobody is waiting, so the lock becomes free.")
                             : tr("The next waiter, %1, becomes the holder.").arg(nextHolder);
    if (lease == 0)
        plan.description = tr("Delete the key %1 (it has no lease). Whoever created it is not "
                              "told. %2")
                               .arg(shown(key), next);
    else
        plan.description =
            tr("Revoke lease %1. etcd deletes %2 and every other key attached to that lease; "
               "its holder loses the lock and learns it only when its own keepalive fails. %3")
                .arg(QString::fromStdString(leaseHex(lease)), shown(key), next);
    return plan;
}

void LockActions::forceRelease(const ForceReleasePlan& plan) {
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
    etcd::pb::TxnRequest txn;
    auto* cmp = txn.add_compare();
    cmp->set_key(plan.key.toStdString());
    cmp->set_target(etcd::pb::Compare::CREATE);
    cmp->set_create_revision(plan.createRevision);
    txn.add_success()->mutable_request_delete_range()->set_key(plan.key.toStdString());
    client_.txn(txn, [done](auto reply) {
        if (!reply)
            done(message(reply.error()));
        else
            done(reply->succeeded() ? tr("key deleted")
                                    : tr("not deleted: the key changed since you looked"));
    });
}

} // namespace lockscope
