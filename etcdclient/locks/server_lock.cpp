#include "etcdclient/locks/server_lock.h"

#include "etcdclient/weak_callback.h"

namespace etcd {

std::shared_ptr<ServerLock> ServerLock::create(Client& client, std::shared_ptr<Session> session,
                                               std::string name) {
    return std::shared_ptr<ServerLock>(new ServerLock(client, std::move(session), std::move(name)));
}

ServerLock::ServerLock(Client& client, std::shared_ptr<Session> session, std::string name)
    : client_(client)
    , session_(std::move(session))
    , name_(std::move(name)) {}

std::string ServerLock::key() const {
    std::lock_guard lock(mutex_);
    return key_;
}

int64_t ServerLock::fencingToken() const {
    std::lock_guard lock(mutex_);
    return token_;
}

void ServerLock::lock(std::chrono::milliseconds waitLimit, Done done) {
    v3lockpb::LockRequest request;
    request.set_name(name_);
    request.set_lease(session_->leaseId());
    client_.lockWithin(waitLimit, request,
                       weakCallback(this, &ServerLock::onLocked, std::move(done)));
}

void ServerLock::onLocked(const Done& done, Result<v3lockpb::LockResponse> locked) {
    if (!locked) {
        done(locked.error());
        return;
    }
    // The response's header revision is when we got the lock, not when our key was created
    // (they differ whenever we waited): read the key for its create revision.
    pb::RangeRequest get;
    get.set_key(locked->key());
    client_.range(get, weakCallback(this, &ServerLock::onKeyRead, locked->key(), done));
}

void ServerLock::onKeyRead(const std::string& key, const Done& done,
                           Result<pb::RangeResponse> read) {
    if (!read) {
        done(read.error());
        return;
    }
    if (read->kvs_size() == 0) {
        done(Error(ErrorCode::LockLost,
                   "lock key " + key + " vanished right after it was acquired"));
        return;
    }
    {
        std::lock_guard lock(mutex_);
        key_ = key;
        token_ = read->kvs(0).create_revision();
    }
    done(Error());
}

void ServerLock::unlock(std::function<void(const Error&)> done) {
    v3lockpb::UnlockRequest request;
    request.set_key(key());
    client_.unlock(request, [done = std::move(done)](auto unlocked) {
        if (done)
            done(unlocked ? Error() : unlocked.error());
    });
}

} // namespace etcd
