#include "etcdclient/locks/server_lock.h"

#include "etcdclient/weak_callback.h"

namespace etcd {

namespace {

// Hands a lock the service granted back to it (a plain delete of `key` on the server).
void giveBack(Client& client, const std::string& key) {
    v3lockpb::UnlockRequest request;
    request.set_key(key);
    client.unlock(request, [](auto) {});
}

} // namespace

std::shared_ptr<ServerLock> ServerLock::create(Client& client, std::shared_ptr<Session> session,
                                               std::string name) {
    std::shared_ptr<ServerLock> lock(new ServerLock(client, std::move(session), std::move(name)));
    lock->session_->onLost(weakCallback(lock.get(), &ServerLock::onSessionLost));
    return lock;
}

ServerLock::ServerLock(Client& client, std::shared_ptr<Session> session, std::string name)
    : client_(client)
    , session_(std::move(session))
    , name_(std::move(name)) {}

ServerLock::~ServerLock() {
    call_.cancel();
    if (state_ == State::Held)
        giveBack(client_, key_);
}

std::string ServerLock::key() const {
    std::lock_guard lock(mutex_);
    return key_;
}

int64_t ServerLock::fencingToken() const {
    std::lock_guard lock(mutex_);
    return token_;
}

ServerLock::State ServerLock::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void ServerLock::lock(std::chrono::milliseconds waitLimit, Done done) {
    std::unique_lock lock(mutex_);
    if (state_ == State::Waiting || state_ == State::Held) {
        lock.unlock();
        done(Error(ErrorCode::FailedPrecondition,
                   "lock " + name_ + " is already being acquired or held by this session"));
        return;
    }
    state_ = State::Waiting;
    key_.clear();
    token_ = 0;
    lockDone_ = std::move(done);
    const uint64_t generation = ++generation_;
    lock.unlock();
    v3lockpb::LockRequest request;
    request.set_name(name_);
    request.set_lease(session_->leaseId());
    // Started outside mutex_: a client shutting down answers at once, on this thread.
    // A grant that comes after this ServerLock is gone (destroyed while it was on its way) is
    // given back, or it would stay held on the server until the lease ends.
    CallCanceller call = client_.lockWithin(waitLimit, request,
                                            [weak = weak_from_this(), &client = client_,
                                             generation](Result<v3lockpb::LockResponse> locked) {
                                                if (auto self = weak.lock())
                                                    self->onLocked(generation, std::move(locked));
                                                else if (locked)
                                                    giveBack(client, locked->key());
                                            });
    lock.lock();
    if (generation == generation_) {
        call_ = call;
        return;
    }
    lock.unlock();
    call.cancel(); // cancel() or unlock() came before the canceller was stored
}

void ServerLock::onLocked(uint64_t generation, Result<v3lockpb::LockResponse> locked) {
    std::unique_lock lock(mutex_);
    if (generation != generation_) {
        lock.unlock();
        if (locked)
            giveBack(client_, locked->key()); // granted as the cancel went out
        return;
    }
    if (!locked) {
        finishWait(lock, locked.error());
        return;
    }
    // The response's header revision is when we got the lock, not when our key was created
    // (they differ whenever we waited): read the key for its create revision.
    lock.unlock();
    pb::RangeRequest get;
    get.set_key(locked->key());
    client_.range(get, [weak = weak_from_this(), &client = client_, generation,
                        key = locked->key()](Result<pb::RangeResponse> read) {
        if (auto self = weak.lock())
            self->onKeyRead(generation, key, std::move(read));
        else
            giveBack(client, key); // ours on the server, and nobody left to hold it
    });
}

void ServerLock::onKeyRead(uint64_t generation, const std::string& key,
                           Result<pb::RangeResponse> read) {
    std::unique_lock lock(mutex_);
    if (generation != generation_) {
        lock.unlock();
        giveBack(client_, key); // cancelled or unlocked while the key was read
        return;
    }
    if (!read) {
        // Granted, but its fencing token is unknown: it goes back rather than stay held on the
        // server behind a wait reported failed.
        giveBack(client_, key);
        finishWait(lock, read.error());
        return;
    }
    if (read->kvs_size() == 0) {
        finishWait(lock, Error(ErrorCode::LockLost,
                               "lock key " + key + " vanished right after it was acquired"));
        return;
    }
    key_ = key;
    token_ = read->kvs(0).create_revision();
    state_ = State::Held;
    pb::WatchCreateRequest watch;
    watch.set_key(key);
    watch.set_start_revision(read->header().revision() + 1);
    watch.add_filters(pb::WatchCreateRequest::NOPUT);
    keyWatch_ = client_.watch(
        watch, {weakCallback(this, &ServerLock::onKeyEvents, generation), [](const Error&) {}});
    auto done = std::exchange(lockDone_, nullptr);
    lock.unlock();
    if (done)
        done(Error());
}

void ServerLock::onKeyEvents(uint64_t generation, const pb::WatchResponse& response) {
    std::unique_lock lock(mutex_);
    if (generation != generation_ || state_ != State::Held || response.events_size() == 0)
        return;
    lose(lock, Error(ErrorCode::LockLost, "lock key " + key_ +
                                              " was deleted while holding the lock: the session "
                                              "expired or someone force-released it"));
}

void ServerLock::onSessionLost(const Error& error) {
    std::unique_lock lock(mutex_);
    if (state_ == State::Waiting) {
        auto call = call_;
        finishWait(lock, error);
        call.cancel();
    } else if (state_ == State::Held) {
        lose(lock, error);
    }
}

void ServerLock::finishWait(std::unique_lock<std::mutex>& lock, const Error& error) {
    state_ = State::Idle;
    ++generation_;
    auto done = std::exchange(lockDone_, nullptr);
    lock.unlock();
    if (done)
        done(error);
}

void ServerLock::lose(std::unique_lock<std::mutex>& lock, const Error& error) {
    state_ = State::Lost;
    ++generation_;
    auto listeners = lostListeners_;
    WatchHandle watch = std::move(keyWatch_);
    lock.unlock();
    watch.cancel();
    for (auto& listener : listeners)
        listener(error);
}

void ServerLock::cancel() {
    std::unique_lock lock(mutex_);
    if (state_ != State::Waiting)
        return;
    auto call = call_;
    finishWait(lock, Error(ErrorCode::Cancelled, "lock " + name_ + " cancelled"));
    call.cancel(); // the server ends its wait and deletes our waiting key
}

void ServerLock::unlock(std::function<void(const Error&)> done) {
    std::unique_lock lock(mutex_);
    if (state_ == State::Waiting) {
        lock.unlock();
        cancel();
        if (done)
            done(Error());
        return;
    }
    const std::string key = key_;
    state_ = State::Idle;
    ++generation_;
    WatchHandle watch = std::move(keyWatch_);
    lock.unlock();
    watch.cancel();
    if (key.empty()) {
        if (done)
            done(Error());
        return;
    }
    v3lockpb::UnlockRequest request;
    request.set_key(key);
    client_.unlock(request, [done = std::move(done)](auto unlocked) {
        if (done)
            done(unlocked ? Error() : unlocked.error());
    });
}

void ServerLock::onLost(std::function<void(const Error&)> listener) {
    std::lock_guard lock(mutex_);
    lostListeners_.push_back(std::move(listener));
}

} // namespace etcd
