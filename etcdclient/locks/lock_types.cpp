#include "etcdclient/locks/lock_types.h"

#include <algorithm>

namespace etcd {

const char* anomalyKindName(AnomalyKind kind) {
    switch (kind) {
    case AnomalyKind::NoLease: return "no_lease";
    case AnomalyKind::LeaseMismatch: return "lease_mismatch";
    case AnomalyKind::NotALockKey: return "not_a_lock_key";
    case AnomalyKind::ExpiredLease: return "expired_lease";
    }
    return "unknown";
}

const char* queueKindName(QueueKind kind) {
    return kind == QueueKind::Election ? "election" : "mutex";
}

QueueKind LockQueue::kind() const {
    const bool election = std::any_of(keys.begin(), keys.end(), [](const LockKey& key) {
        return !key.value.empty() || key.modRevision > key.createRevision;
    });
    return election ? QueueKind::Election : QueueKind::Mutex;
}

const char* lockEventKindName(LockEventKind kind) {
    switch (kind) {
    case LockEventKind::Enqueued: return "enqueued";
    case LockEventKind::Acquired: return "acquired";
    case LockEventKind::Released: return "released";
    case LockEventKind::Cancelled: return "cancelled";
    case LockEventKind::Expired: return "expired";
    case LockEventKind::ForceReleased: return "force-released";
    case LockEventKind::Lost: return "lost";
    }
    return "unknown";
}

double LeaseTtl::remainingAt(std::chrono::steady_clock::time_point now) const {
    if (ttlSeconds < 0)
        return -1;
    const double elapsed = std::chrono::duration<double>(now - fetchedAt).count();
    return std::max(0.0, static_cast<double>(ttlSeconds) - elapsed);
}

} // namespace etcd
