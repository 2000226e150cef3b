#include "etcdclient/locks/single_key_lock.h"

#include "etcdclient/locks/mutex.h"
#include "etcdclient/weak_callback.h"

#include <utility>

namespace etcd {

namespace {

Error busy(const std::string& key) {
    return Error(ErrorCode::FailedPrecondition,
                 "lock " + key + " is already being taken or held by this lock");
}

} // namespace

std::shared_ptr<SingleKeyLock> SingleKeyLock::create(Client& client,
                                                     std::shared_ptr<Session> session,
                                                     std::string key, std::string value) {
    auto lock = std::shared_ptr<SingleKeyLock>(
        new SingleKeyLock(client, std::move(session), std::move(key), std::move(value)));
    lock->session_->onLost(weakCallback(lock.get(), &SingleKeyLock::onSessionLost));
    return lock;
}

SingleKeyLock::SingleKeyLock(Client& client, std::shared_ptr<Session> session, std::string key,
                             std::string value)
    : client_(client)
    , session_(std::move(session))
    , key_(std::move(key))
    , value_(std::move(value)) {}

SingleKeyLock::~SingleKeyLock() {
    if (state_ == State::Held)
        guardedDelete(client_, key_, myRevision_, nullptr);
}

void SingleKeyLock::attempt(uint64_t generation, TryDone done) {
    pb::TxnRequest txn;
    pb::Compare* absent = txn.add_compare();
    absent->set_key(key_);
    absent->set_target(pb::Compare::CREATE);
    absent->set_result(pb::Compare::EQUAL);
    absent->set_create_revision(0);
    pb::PutRequest* put = txn.add_success()->mutable_request_put();
    put->set_key(key_);
    put->set_value(value_);
    put->set_lease(session_->leaseId());
    txn.add_failure()->mutable_request_range()->set_key(key_);
    std::weak_ptr<SingleKeyLock> weak = weak_from_this();
    Client& client = client_;
    // Put-if-absent: a resend finds our key on our lease, and adopts it as a first try would.
    client_.idempotentTxn(txn, [weak, &client, key = key_, lease = session_->leaseId(), generation,
                                done = std::move(done)](Result<pb::TxnResponse> reply) {
        auto self = weak.lock();
        Attempt found;
        if (reply) {
            const auto& there = reply->responses(0).response_range();
            if (reply->succeeded())
                found = {true, reply->header().revision()};
            else if (there.kvs_size() > 0 && there.kvs(0).lease() == lease)
                found = {true, there.kvs(0).create_revision()};
            else
                found = {false, reply->header().revision()};
        } else {
            removeUnconfirmedKey(client, key, lease); // the put may have landed
        }
        std::unique_lock<std::mutex> lock;
        if (self)
            lock = std::unique_lock(self->mutex_);
        if (!self || generation != self->generation_) {
            // Cancelled or gone meanwhile: a key this attempt created is nobody's.
            if (reply && found.held)
                guardedDelete(client, key, found.revision, nullptr);
            return;
        }
        if (!reply) {
            done(lock, reply.error());
            return;
        }
        self->myRevision_ = found.held ? found.revision : 0;
        done(lock, found);
    });
}

std::optional<uint64_t> SingleKeyLock::beginTrying(std::function<void(const Error&)>* lockDone) {
    std::lock_guard lock(mutex_);
    if (state_ != State::Idle)
        return std::nullopt;
    state_ = State::Trying;
    if (lockDone)
        lockDone_ = std::move(*lockDone);
    return ++generation_;
}

void SingleKeyLock::lock(std::function<void(const Error&)> done) {
    if (const auto generation = beginTrying(&done))
        tryAgain(*generation);
    else
        done(busy(key_));
}

void SingleKeyLock::tryAgain(uint64_t generation) {
    attempt(generation, [this](std::unique_lock<std::mutex>& lock, Result<Attempt> found) {
        if (!found) {
            finishLock(lock, found.error());
            return;
        }
        if (!found->held) {
            waitForDelete(lock, found->revision + 1);
            return;
        }
        state_ = State::Held;
        watchOwnKey(lock);
        finishLock(lock, Error());
    });
}

void SingleKeyLock::tryLock(std::function<void(Result<bool>)> done) {
    const auto generation = beginTrying(nullptr);
    if (!generation) {
        done(busy(key_));
        return;
    }
    attempt(*generation, [this, done = std::move(done)](std::unique_lock<std::mutex>& lock,
                                                        Result<Attempt> found) {
        state_ = found && found->held ? State::Held : State::Idle;
        if (state_ == State::Held)
            watchOwnKey(lock);
        lock.unlock();
        done(found ? Result<bool>(found->held) : Result<bool>(found.error()));
    });
}

void SingleKeyLock::waitForDelete(std::unique_lock<std::mutex>& lock, int64_t fromRevision) {
    state_ = State::Waiting;
    watchDeletions(lock, fromRevision,
                   {weakCallback(this, &SingleKeyLock::onWaitEvents, generation_),
                    weakCallback(this, &SingleKeyLock::onWaitEnd, generation_)});
}

void SingleKeyLock::watchDeletions(std::unique_lock<std::mutex>& lock, int64_t fromRevision,
                                   WatchCallbacks callbacks) {
    pb::WatchCreateRequest request;
    request.set_key(key_);
    request.set_start_revision(fromRevision);
    request.add_filters(pb::WatchCreateRequest::NOPUT); // only the key's deletion matters
    WatchHandle handle = client_.watch(request, std::move(callbacks));
    std::swap(watch_, handle);
    // The replaced handle is cancelled outside mutex_: cancel() waits for a running callback of
    // it, which may be waiting for mutex_.
    lock.unlock();
    handle.cancel();
    lock.lock();
}

void SingleKeyLock::onWaitEvents(uint64_t generation, const pb::WatchResponse& response) {
    if (response.events_size() > 0)
        tryAfterWait(generation);
}

void SingleKeyLock::tryAfterWait(uint64_t generation) {
    {
        std::lock_guard lock(mutex_);
        if (generation != generation_ || state_ != State::Waiting)
            return;
        state_ = State::Trying;
    }
    tryAgain(generation);
}

void SingleKeyLock::onWaitEnd(uint64_t generation, const Error&) {
    tryAfterWait(generation); // compacted or ended: the key may be gone by now; look again
}

void SingleKeyLock::watchOwnKey(std::unique_lock<std::mutex>& lock) {
    watchDeletions(lock, myRevision_ + 1,
                   {weakCallback(this, &SingleKeyLock::onOwnKeyEvents, generation_),
                    [](const Error&) {}}); // the session still guards a hold whose watch ended
}

void SingleKeyLock::onOwnKeyEvents(uint64_t generation, const pb::WatchResponse& response) {
    if (response.events_size() == 0)
        return;
    std::unique_lock lock(mutex_);
    if (generation != generation_ || state_ != State::Held)
        return;
    loseHeld(lock, Error(ErrorCode::LockLost,
                         "lock key " + key_ +
                             " was deleted while held: someone force-released it, or its "
                             "session expired"));
}

void SingleKeyLock::onSessionLost(const Error& error) {
    std::unique_lock lock(mutex_);
    if (state_ == State::Held)
        loseHeld(lock, error);
    else if (state_ != State::Idle)
        finishLock(lock, error);
}

void SingleKeyLock::cancel() {
    std::unique_lock lock(mutex_);
    if (state_ == State::Trying || state_ == State::Waiting)
        finishLock(lock, Error(ErrorCode::Cancelled, "waiting for lock " + key_ + " cancelled"));
}

void SingleKeyLock::unlock(std::function<void(const Error&)> done) {
    std::unique_lock lock(mutex_);
    const bool held = state_ == State::Held;
    const int64_t revision = myRevision_;
    if (state_ != State::Idle && !held)
        finishLock(lock, Error(ErrorCode::Cancelled, "lock " + key_ + " released while waiting"));
    else {
        ++generation_; // our own delete is no loss
        state_ = State::Idle;
        WatchHandle handle = std::move(watch_);
        lock.unlock();
        handle.cancel();
    }
    if (!held) {
        if (done)
            done(Error());
        return;
    }
    guardedDelete(client_, key_, revision, [done = std::move(done)](Result<bool> deleted) {
        if (done) // false: gone already, which leaves no key of ours either
            done(deleted ? Error() : deleted.error());
    });
}

void SingleKeyLock::onLost(std::function<void(const Error&)> listener) {
    std::lock_guard lock(mutex_);
    lostListeners_.push_back(std::move(listener));
}

bool SingleKeyLock::held() const {
    std::lock_guard lock(mutex_);
    return state_ == State::Held;
}

int64_t SingleKeyLock::fencingToken() const {
    std::lock_guard lock(mutex_);
    return myRevision_;
}

void SingleKeyLock::finishLock(std::unique_lock<std::mutex>& lock, const Error& error) {
    if (!error.ok()) {
        ++generation_; // callbacks of the ended wait are ignored
        state_ = State::Idle;
    }
    auto done = std::move(lockDone_);
    lockDone_ = nullptr;
    WatchHandle handle;
    if (!error.ok())
        std::swap(watch_, handle);
    lock.unlock();
    handle.cancel();
    if (done)
        done(error);
}

void SingleKeyLock::loseHeld(std::unique_lock<std::mutex>& lock, const Error& error) {
    ++generation_;
    state_ = State::Idle;
    const auto listeners = lostListeners_;
    WatchHandle handle = std::move(watch_);
    lock.unlock();
    handle.cancel();
    for (const auto& listener : listeners)
        listener(error);
}

} // namespace etcd
