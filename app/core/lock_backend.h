#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/election.h"
#include "etcdclient/locks/lock_types.h"
#include "etcdclient/locks/session.h"

#include <functional>
#include <memory>
#include <string>

namespace lockscope {

// Which code takes a lock: our Mutex (Go's concurrency.Mutex protocol, waiting on a shared
// watch), etcd's Lock service (the server waits; no try-lock), or a single-key lock (the key is
// the lock, as python-etcd3, node etcd3's lock() and tooz take one).
enum class LockBackendKind { Mutex, ServerLock, SingleKey };

// One place in a lock's queue, whichever backend holds it, as `lockscopectl lock` and the
// window's LockActions use it; an election candidacy is one too (leading is holding). Callbacks
// run on the client's thread.
class LockBackend {
public:
    using ErrorCallback = std::function<void(const etcd::Error&)>;
    virtual ~LockBackend() = default;

    // Queues and waits: Ok once held, Cancelled after cancel(), or why not.
    virtual void lock(ErrorCallback done) = 0;
    // Takes the lock only if it is free: true when held, false when someone else holds it.
    virtual void tryLock(std::function<void(etcd::Result<bool>)> done) = 0;
    // Ends a pending lock(), leaving no key of ours behind.
    virtual void cancel() = 0;
    // Lets go of the lock (or of a pending wait); `done` once etcd answered: Ok when no key of
    // ours is left (deleted now, or gone before), or why etcd could not be told.
    virtual void unlock(ErrorCallback done) = 0;
    // Called when a held lock is lost.
    virtual void onLost(ErrorCallback listener) = 0;
    virtual bool held() const = 0;
    virtual std::string key() const = 0;
    virtual int64_t fencingToken() const = 0; // our key's create revision while held
};

// `mode` Read or Write: a reader or writer of etcd's RWMutex recipe, through our Mutex.
std::unique_ptr<LockBackend> makeLockBackend(LockBackendKind kind, etcd::Client& client,
                                             std::shared_ptr<etcd::Session> session,
                                             const std::string& name,
                                             etcd::KeyMode mode = etcd::KeyMode::Exclusive);
// A candidacy in `election` with `proposal`: lock() campaigns, unlock() resigns.
std::unique_ptr<LockBackend> candidacyBackend(std::shared_ptr<etcd::Election> election,
                                              std::string proposal);

} // namespace lockscope
