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

const char* keyModeName(KeyMode mode) {
    switch (mode) {
    case KeyMode::Exclusive: return "exclusive";
    case KeyMode::Read: return "read";
    case KeyMode::Write: return "write";
    }
    return "unknown";
}

const char* queueKindName(QueueKind kind) {
    switch (kind) {
    case QueueKind::Mutex: return "mutex";
    case QueueKind::Election: return "election";
    case QueueKind::RwMutex: return "rwmutex";
    case QueueKind::SingleKey: return "single-key";
    case QueueKind::Unknown: return "unknown";
    }
    return "unknown";
}

const char* recipeOverrideName(RecipeOverride recipe) {
    switch (recipe) {
    case RecipeOverride::Auto: return "auto";
    case RecipeOverride::Mutex: return "mutex";
    case RecipeOverride::Election: return "election";
    case RecipeOverride::RwMutex: return "rwmutex";
    case RecipeOverride::SingleKey: return "single-key";
    }
    return "auto";
}

std::optional<RecipeOverride> parseRecipeOverride(const std::string& name) {
    for (auto recipe : {RecipeOverride::Auto, RecipeOverride::Mutex, RecipeOverride::Election,
                        RecipeOverride::RwMutex, RecipeOverride::SingleKey})
        if (name == recipeOverrideName(recipe))
            return recipe;
    return std::nullopt;
}

SharedLockQueue::SharedLockQueue()
    : queue_(std::make_shared<LockQueue>()) {}

SharedLockQueue::SharedLockQueue(LockQueue queue)
    : queue_(std::make_shared<LockQueue>(std::move(queue))) {}

SharedLockQueue::SharedLockQueue(const SharedLockQueue& other)
    : queue_(other.queue_)
    , shared_(true) {
    other.shared_ = true;
}

SharedLockQueue& SharedLockQueue::operator=(const SharedLockQueue& other) {
    if (this != &other) {
        queue_ = other.queue_;
        shared_ = true;
        other.shared_ = true;
    }
    return *this;
}

LockQueue& SharedLockQueue::edit() {
    if (shared_) {
        queue_ = std::make_shared<LockQueue>(*queue_);
        shared_ = false;
    }
    return *queue_;
}

QueueKind LockQueue::kind() const {
    if (assumed)
        return *assumed;
    if (keyIsLock)
        return !keys.empty() && keys.front().lease != 0 ? QueueKind::SingleKey : QueueKind::Unknown;
    // An RWMutex's keys and a Go Mutex's of the same name wait on each other (each waits on
    // the whole prefix), so they share a queue; its first key decides.
    if (!keys.empty() && keys.front().mode != KeyMode::Exclusive)
        return QueueKind::RwMutex;
    const bool election = std::any_of(keys.begin(), keys.end(), [](const LockKey& key) {
        return !key.value.empty() || key.modRevision > key.createRevision;
    });
    return election ? QueueKind::Election : QueueKind::Mutex;
}

std::size_t LockQueue::holderCount() const {
    if (keys.empty())
        return 0;
    if (keys.front().mode != KeyMode::Read)
        return 1;
    const auto writer = std::find_if(keys.begin(), keys.end(),
                                     [](const LockKey& key) { return key.mode != KeyMode::Read; });
    return static_cast<std::size_t>(writer - keys.begin());
}

const LockKey* LockQueue::waitsOn(std::size_t index) const {
    if (index >= keys.size() || index < holderCount())
        return nullptr;
    if (keys[index].mode != KeyMode::Read)
        return &keys[index - 1];
    for (std::size_t i = index; i-- > 0;)
        if (keys[i].mode != KeyMode::Read)
            return &keys[i];
    return nullptr; // not reached: a reader that does not hold has an older writer
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
    case LockEventKind::Proclaimed: return "proclaimed";
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
