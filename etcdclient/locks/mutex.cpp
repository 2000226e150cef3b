#include "etcdclient/locks/mutex.h"

#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "etcdclient/weak_callback.h"

#include <utility>

namespace etcd {

namespace {

constexpr std::chrono::milliseconds retryDelay{200};

pb::Compare createRevisionIs(const std::string& key, int64_t revision) {
    pb::Compare cmp;
    cmp.set_key(key);
    cmp.set_target(pb::Compare::CREATE);
    cmp.set_result(pb::Compare::EQUAL);
    cmp.set_create_revision(revision);
    return cmp;
}

pb::RangeRequest firstCreated(const std::string& prefix) {
    pb::RangeRequest r;
    r.set_key(prefix);
    r.set_range_end(prefixRangeEnd(prefix));
    r.set_sort_target(pb::RangeRequest::CREATE);
    r.set_sort_order(pb::RangeRequest::ASCEND);
    r.set_limit(1);
    return r;
}

void answerUnlocks(const std::vector<std::function<void(Result<bool>)>>& unlocks,
                   const Result<bool>& answer) {
    for (const auto& unlock : unlocks)
        unlock(answer);
}

Error keyTaken(const std::string& key) {
    return Error(ErrorCode::FailedPrecondition,
                 "lock key " + key +
                     " already exists on another lease: another contender uses "
                     "that key, so ours cannot queue under it");
}

Error lostWhile(const std::string& key, const char* when) {
    return Error(ErrorCode::LockLost, "lock key " + key + " was deleted while " + when +
                                          ": the session expired or someone force-released it");
}

} // namespace

void removeUnconfirmedKey(Client& client, const std::string& key, int64_t leaseId) {
    pb::RangeRequest read;
    read.set_key(key);
    client.range(read, [&client, key, leaseId](Result<pb::RangeResponse> reply) {
        if (reply && reply->kvs_size() > 0 && reply->kvs(0).lease() == leaseId)
            guardedDelete(client, key, reply->kvs(0).create_revision(), nullptr);
    });
}

void guardedDelete(Client& client, const std::string& key, int64_t createRevision,
                   std::function<void(Result<bool>)> done) {
    pb::TxnRequest txn;
    *txn.add_compare() = createRevisionIs(key, createRevision);
    txn.add_success()->mutable_request_delete_range()->set_key(key);
    client.idempotentTxn(txn, [done = std::move(done)](Result<pb::TxnResponse> reply) {
        if (!done)
            return;
        if (reply)
            done(reply->succeeded());
        else
            done(reply.error());
    });
}

std::shared_ptr<Mutex> Mutex::create(Client& client, std::shared_ptr<Session> session,
                                     std::string name, std::string value) {
    const std::string prefix = name + "/";
    LockLayout layout{prefix + leaseHex(session->leaseId()), prefix, prefix};
    return create(client, std::move(session), std::move(name), std::move(layout), std::move(value));
}

std::shared_ptr<Mutex> Mutex::create(Client& client, std::shared_ptr<Session> session,
                                     std::string name, LockLayout layout, std::string value) {
    std::shared_ptr<Mutex> mutex(new Mutex(client, std::move(session), std::move(name),
                                           std::move(layout), std::move(value)));
    mutex->session_->onLost(weakCallback(mutex.get(), &Mutex::onSessionLost));
    return mutex;
}

void Mutex::onSessionLost(const Error& error) {
    std::unique_lock lock(mutex_);
    if (state_ == State::Waiting)
        fail(lock, error);
    else if (state_ == State::Held)
        loseHeld(lock, error);
}

Mutex::Mutex(Client& client, std::shared_ptr<Session> session, std::string name, LockLayout layout,
             std::string value)
    : client_(client)
    , session_(std::move(session))
    , name_(std::move(name))
    , layout_(std::move(layout))
    , value_(std::move(value)) {}

Mutex::~Mutex() {
    if (myRevision_ > 0 && state_ != State::Idle)
        guardedDelete(client_, layout_.key, myRevision_, nullptr);
}

Mutex::State Mutex::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

int64_t Mutex::fencingToken() const {
    std::lock_guard lock(mutex_);
    return myRevision_;
}

std::size_t Mutex::predecessorsLeft() const {
    std::lock_guard lock(mutex_);
    return predecessors_.size();
}

pb::Compare Mutex::ownerCompare() const {
    return createRevisionIs(layout_.key, fencingToken());
}

pb::TxnRequest acquireTxn(const std::string& prefix, const std::string& key, int64_t leaseId,
                          const std::string& value) {
    pb::TxnRequest txn;
    *txn.add_compare() = createRevisionIs(key, 0);
    pb::PutRequest put;
    put.set_key(key);
    put.set_value(value);
    put.set_lease(leaseId);
    *txn.add_success()->mutable_request_put() = put;
    *txn.add_success()->mutable_request_range() = firstCreated(prefix);
    txn.add_failure()->mutable_request_range()->set_key(key);
    *txn.add_failure()->mutable_request_range() = firstCreated(prefix);
    // After the reads, so the replies sit where the success branch's do.
    if (!value.empty())
        *txn.add_failure()->mutable_request_put() = put;
    return txn;
}

void Mutex::acquire(uint64_t generation, AcquireDone done) {
    const pb::TxnRequest txn =
        acquireTxn(layout_.blockerPrefix, layout_.key, session_->leaseId(), value_);
    std::weak_ptr<Mutex> weak = weak_from_this();
    Client& client = client_;
    // Put-if-absent: a resend finds our key and reads its create revision, as a first try would.
    client_.idempotentTxn(txn, [weak, &client, key = layout_.key, leaseId = session_->leaseId(),
                                generation, done = std::move(done)](auto reply) {
        auto self = weak.lock();
        if (!reply) {
            // The put may have landed: remove it rather than leave a key that blocks the queue.
            removeUnconfirmedKey(client, key, leaseId);
            if (self)
                self->whileCurrent(generation, done, reply.error(), false, 0, 0);
            return;
        }
        const auto& header = reply->header();
        const auto& mine = reply->responses(0).response_range();
        if (!reply->succeeded() && (mine.kvs_size() == 0 || mine.kvs(0).lease() != leaseId)) {
            // Not ours to adopt: another session's key by the same name.
            if (self)
                self->whileCurrent(generation, done, keyTaken(key), false, 0, 0);
            return;
        }
        const int64_t myRev =
            reply->succeeded() ? header.revision() : mine.kvs(0).create_revision();
        // Our key blocks itself under a Mutex's layout; only older blockers keep us waiting.
        const auto& first = reply->responses(1).response_range();
        const bool isOwner = first.kvs_size() == 0 || first.kvs(0).create_revision() >= myRev;
        if (!self) {
            guardedDelete(client, key, myRev, nullptr); // the Mutex went away meanwhile
            return;
        }
        self->whileCurrent(generation, done, Error(), isOwner, myRev, header.revision());
    });
}

void Mutex::whileCurrent(uint64_t generation, const AcquireDone& done, const Error& error,
                         bool owner, int64_t myRevision, int64_t revision) {
    std::unique_lock lock(mutex_);
    if (generation == generation_)
        done(lock, error, owner, myRevision, revision);
}

bool Mutex::beginAcquire(std::unique_lock<std::mutex>& lock) {
    if (state_ == State::Acquiring || state_ == State::Waiting || state_ == State::Held) {
        lock.unlock();
        return false;
    }
    state_ = State::Acquiring;
    cancelRequested_ = false;
    ++generation_;
    return true;
}

Error Mutex::busyError() const {
    return Error(ErrorCode::FailedPrecondition,
                 "lock " + name_ + " is already being acquired or held by this session");
}

void Mutex::lock(std::function<void(const Error&)> done) {
    uint64_t generation = 0;
    {
        std::unique_lock lock(mutex_);
        if (!beginAcquire(lock)) {
            done(busyError());
            return;
        }
        lockDone_ = std::move(done);
        generation = generation_;
    }
    acquire(generation, [this, generation](std::unique_lock<std::mutex>& lock, const Error& error,
                                           bool owner, int64_t myRev, int64_t revision) {
        if (!error.ok()) {
            auto unlocks = std::exchange(pendingUnlocks_, {});
            fail(lock, error);
            answerUnlocks(unlocks, error);
            return;
        }
        myRevision_ = myRev;
        if (cancelRequested_) {
            abandonAcquired(lock, myRev);
            return;
        }
        predecessors_.clear();
        // The state moves before startWatch, which lets go of mutex_ for a moment: an unlock()
        // then must find the lock held (and release it), not still being acquired.
        state_ = owner ? State::Held : State::Waiting;
        startWatch(lock, owner ? revision : 0);
        if (owner && generation == generation_)
            becomeHeld(lock);
    });
}

void Mutex::tryLock(std::function<void(Result<bool>)> done) {
    uint64_t generation = 0;
    {
        std::unique_lock lock(mutex_);
        if (!beginAcquire(lock)) {
            done(busyError());
            return;
        }
        generation = generation_;
    }
    acquire(generation, [this, generation, done = std::move(done)](
                            std::unique_lock<std::mutex>& lock, const Error& error, bool owner,
                            int64_t myRev, int64_t revision) {
        if (!error.ok()) {
            state_ = State::Idle;
            auto unlocks = std::exchange(pendingUnlocks_, {});
            lock.unlock();
            answerUnlocks(unlocks, error);
            done(error);
            return;
        }
        myRevision_ = myRev;
        if (!owner || cancelRequested_) {
            // Someone else holds it (or we were told to let go): take our key out of the queue
            // again, as Go's TryLock does.
            abandonAcquired(lock, myRev, [done](Result<bool> deleted) {
                if (deleted)
                    done(false);
                else
                    done(deleted.error());
            });
            return;
        }
        predecessors_.clear();
        state_ = State::Held; // before startWatch lets go of mutex_, as in lock()
        startWatch(lock, revision);
        const bool released = generation != generation_;
        lock.unlock();
        if (released)
            done(Error(ErrorCode::Cancelled,
                       "lock " + name_ + " was released while it was being acquired"));
        else
            done(true);
    });
}

void Mutex::abandonAcquired(std::unique_lock<std::mutex>& lock, int64_t revision,
                            std::function<void(Result<bool>)> deleted) {
    auto unlocks = std::exchange(pendingUnlocks_, {});
    fail(lock, Error(ErrorCode::Cancelled, "lock " + name_ + " cancelled"));
    guardedDelete(client_, layout_.key, revision,
                  [unlocks = std::move(unlocks), deleted = std::move(deleted)](Result<bool> r) {
                      answerUnlocks(unlocks, r);
                      if (deleted)
                          deleted(r);
                  });
}

void Mutex::snapshot(uint64_t generation) {
    // Our key and every blocker older than it, at one revision; the watch already runs.
    pb::TxnRequest txn;
    txn.add_success()->mutable_request_range()->set_key(layout_.key);
    auto* older = txn.add_success()->mutable_request_range();
    older->set_key(layout_.blockerPrefix);
    older->set_range_end(prefixRangeEnd(layout_.blockerPrefix));
    older->set_keys_only(true);
    older->set_max_create_revision(fencingToken() - 1);
    client_.idempotentTxn(txn, weakCallback(this, &Mutex::onSnapshot, generation));
}

void Mutex::onSnapshot(uint64_t generation, Result<pb::TxnResponse> reply) {
    std::unique_lock lock(mutex_);
    if (generation != generation_)
        return;
    if (!reply) {
        rewatch(lock);
        return;
    }
    if (reply->responses(0).response_range().kvs_size() == 0) {
        const bool held = state_ == State::Held;
        if (held)
            loseHeld(lock, lostWhile(layout_.key, "holding the lock"));
        else
            fail(lock, lostWhile(layout_.key, "waiting for the lock"));
        return;
    }
    predecessors_.clear();
    for (const auto& kv : reply->responses(1).response_range().kvs())
        predecessors_.insert(kv.key());
    knownRevision_ = reply->header().revision();
    // Deletions the watch delivered before the read answered: the read already shows the older.
    for (const auto& [key, revision] : std::exchange(earlyDeletes_, {}))
        if (revision > knownRevision_ && !applyDelete(lock, key))
            return;
    if (state_ == State::Waiting && predecessors_.empty())
        becomeHeld(lock);
}

bool Mutex::watching(uint64_t generation) const {
    return generation == generation_ && (state_ == State::Waiting || state_ == State::Held);
}

void Mutex::rewatch(std::unique_lock<std::mutex>& lock) {
    const uint64_t generation = ++generation_;
    lock.unlock();
    client_.schedule(retryDelay, weakCallback(this, &Mutex::watchAgain, generation));
}

void Mutex::watchAgain(uint64_t generation) {
    std::unique_lock lock(mutex_);
    if (watching(generation))
        startWatch(lock, 0);
}

void Mutex::startWatch(std::unique_lock<std::mutex>& lock, int64_t knownRevision) {
    const uint64_t generation = generation_;
    knownRevision_ = knownRevision;
    earlyDeletes_.clear();
    pb::WatchCreateRequest request;
    request.set_key(layout_.queuePrefix);
    request.set_range_end(prefixRangeEnd(layout_.queuePrefix));
    request.add_filters(pb::WatchCreateRequest::NOPUT); // only deletions move a queue
    // Should this create the server watch, from the revision we know: a stream that breaks
    // before the watch is confirmed then resumes it without a gap.
    if (knownRevision > 0)
        request.set_start_revision(knownRevision + 1);
    // One server watch per client and prefix, shared by its Mutexes and kept between locks: a
    // watch created for this wait could be left by etcd to its 100 ms catch-up pass (when a
    // write lands while etcd registers it), and would then deliver the predecessor's delete
    // that late. The running one is synced and delivers it as it commits.
    WatchHandle handle =
        client_.sharedWatch(request, {weakCallback(this, &Mutex::onWatchEvents, generation),
                                      weakCallback(this, &Mutex::onWatchEnd, generation)});
    std::swap(watch_, handle);
    // The replaced handle (if any) is cancelled outside mutex_: cancel() waits for a running
    // callback of it, which may be waiting for mutex_.
    lock.unlock();
    handle.cancel();
    lock.lock();
}

void Mutex::onWatchEnd(uint64_t generation, const Error&) {
    std::unique_lock lock(mutex_);
    if (watching(generation))
        rewatch(lock); // compacted or broken: re-watch, re-read
}

void Mutex::onWatchEvents(uint64_t generation, const pb::WatchResponse& response) {
    std::unique_lock lock(mutex_);
    if (generation != generation_)
        return;
    if (response.created()) {
        // The watch delivers every deletion after the created revision. When it may have
        // missed some we must know of (ours or a predecessor's), read the queue now that it
        // runs: whatever the read misses, it delivers.
        if (knownRevision_ == 0 || response.header().revision() > knownRevision_) {
            knownRevision_ = 0;
            lock.unlock();
            snapshot(generation);
        }
        return;
    }
    for (const auto& event : response.events()) {
        if (event.type() != mvccpb::Event::DELETE)
            continue;
        const int64_t revision = event.kv().mod_revision();
        if (knownRevision_ == 0)
            earlyDeletes_.emplace_back(event.kv().key(), revision);
        else if (revision > knownRevision_ && !applyDelete(lock, event.kv().key()))
            return;
    }
    if (knownRevision_ != 0 && state_ == State::Waiting && predecessors_.empty())
        becomeHeld(lock);
}

bool Mutex::applyDelete(std::unique_lock<std::mutex>& lock, const std::string& key) {
    if (key != layout_.key) {
        predecessors_.erase(key);
        return true;
    }
    if (state_ == State::Held)
        loseHeld(lock, lostWhile(layout_.key, "holding the lock"));
    else
        fail(lock, lostWhile(layout_.key, "waiting for the lock"));
    return false;
}

void Mutex::becomeHeld(std::unique_lock<std::mutex>& lock) {
    state_ = State::Held;
    auto done = std::move(lockDone_);
    lockDone_ = nullptr;
    lock.unlock();
    if (done)
        done(Error());
}

void Mutex::fail(std::unique_lock<std::mutex>& lock, const Error& error) {
    state_ = State::Idle;
    ++generation_;
    auto done = std::move(lockDone_);
    lockDone_ = nullptr;
    WatchHandle watch = std::move(watch_);
    lock.unlock();
    watch.cancel();
    if (done)
        done(error);
}

void Mutex::loseHeld(std::unique_lock<std::mutex>& lock, const Error& error) {
    state_ = State::Lost;
    ++generation_;
    auto listeners = lostListeners_;
    WatchHandle watch = std::move(watch_);
    lock.unlock();
    watch.cancel();
    for (auto& listener : listeners)
        listener(error);
}

void Mutex::onLost(std::function<void(const Error&)> listener) {
    std::lock_guard lock(mutex_);
    lostListeners_.push_back(std::move(listener));
}

void Mutex::cancel() {
    std::unique_lock lock(mutex_);
    if (state_ == State::Acquiring) {
        cancelRequested_ = true; // the acquire reply removes the key it may have created
        return;
    }
    if (state_ != State::Waiting)
        return;
    const int64_t revision = myRevision_;
    fail(lock, Error(ErrorCode::Cancelled, "lock " + name_ + " cancelled"));
    guardedDelete(client_, layout_.key, revision, nullptr);
}

void Mutex::unlock(std::function<void(Result<bool>)> done) {
    std::unique_lock lock(mutex_);
    const int64_t revision = myRevision_;
    if (state_ == State::Acquiring) {
        // The acquire Txn may have created our key already: answer once its reply has been
        // handled and the key removed, so after the answer the lock is never held.
        cancelRequested_ = true;
        if (done)
            pendingUnlocks_.push_back(std::move(done));
        return;
    }
    fail(lock, Error(ErrorCode::Cancelled, "lock " + name_ + " released before it was acquired"));
    if (revision == 0) {
        if (done)
            done(false);
        return;
    }
    guardedDelete(client_, layout_.key, revision, std::move(done));
}

void Mutex::guardedWrite(std::vector<pb::RequestOp> ops, std::function<void(Result<bool>)> done) {
    pb::TxnRequest txn;
    *txn.add_compare() = ownerCompare();
    for (auto& op : ops)
        *txn.add_success() = std::move(op);
    client_.txn(txn, [done = std::move(done)](Result<pb::TxnResponse> reply) {
        if (reply)
            done(reply->succeeded());
        else
            done(reply.error());
    });
}

} // namespace etcd
