#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/session.h"

#include <functional>
#include <memory>
#include <string>

namespace lockscope {

// What `lockscopectl lock` needs of a lock, whichever backend takes it: our Mutex (the
// default) or etcd's Lock service (--server-lock). Callbacks run on the client's thread.
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
    // Lets go of the lock (or of a pending wait); `done` once etcd answered.
    virtual void unlock(std::function<void()> done) = 0;
    // Called when a held lock is lost.
    virtual void onLost(ErrorCallback listener) = 0;
    virtual std::string key() const = 0;
    virtual int64_t fencingToken() const = 0; // our key's create revision while held
};

std::unique_ptr<LockBackend>
mutexBackend(etcd::Client& client, std::shared_ptr<etcd::Session> session, const std::string& name);
std::unique_ptr<LockBackend> serverLockBackend(etcd::Client& client,
                                               std::shared_ptr<etcd::Session> session,
                                               const std::string& name);

} // namespace lockscope
