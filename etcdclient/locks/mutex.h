#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/session.h"

#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace etcd {

// Where a lock's keys are: ours, the prefix every contender's key is under (watched for
// deletions), and the prefix whose keys block ours when created before it. Go's Mutex: all
// three are the name's (blockers = queue); the RWMutex recipe's: see rw_mutex.h.
struct LockLayout {
    std::string key;
    std::string queuePrefix;
    std::string blockerPrefix;
};

// A distributed lock wire-compatible with Go's concurrency.Mutex (and so with `etcdctl lock`):
// the key <name>/<lease id in hex> on the session's lease, the same acquire Txn, the same
// create-revision queue. Waiting differs: instead of Go's chain of per-predecessor watches and
// reads, it joins the client's shared watch of the whole prefix (Client::sharedWatch, synced in
// etcd and so never waiting for its catch-up pass), then reads every predecessor and tracks
// them locally, so the lock is held the moment the last predecessor's DELETE arrives.
//
// The key's value is empty for a lock; an election candidate (Election) queues the same way
// with its proposal as the value.
//
// Thread-safe; callbacks run on the client's thread. The Client must outlive the Mutex.
// Destroying a Mutex that still has a key deletes it (guarded by its create revision).
class Mutex : public std::enable_shared_from_this<Mutex> {
public:
    enum class State { Idle, Acquiring, Waiting, Held, Lost };

    static std::shared_ptr<Mutex> create(Client& client, std::shared_ptr<Session> session,
                                         std::string name, std::string value = {});
    // The same lock on another layout: held once no key under layout.blockerPrefix that was
    // created before ours is left (rw_mutex.h makes the recipe's readers and writers so).
    static std::shared_ptr<Mutex> create(Client& client, std::shared_ptr<Session> session,
                                         std::string name, LockLayout layout,
                                         std::string value = {});
    ~Mutex();

    // Queues and waits; done() gets Ok once held, Cancelled after cancel(), LockLost if our key
    // vanished while waiting (session expired, force-release), or the call's error.
    void lock(std::function<void(const Error&)> done);
    // true: held now; false: someone else holds it (our key is removed again).
    void tryLock(std::function<void(Result<bool>)> done);
    // Abandons a pending lock(): our key is deleted and lock() ends with Cancelled.
    void cancel();
    // Deletes our key if it is still our incarnation: true when it was, false when it was gone
    // or replaced (a stale unlock never deletes a newer key). While an acquire Txn is in flight
    // the answer waits for its reply; once answered, the lock is not held and no key of ours
    // remains, and a pending lock() ends with Cancelled.
    void unlock(std::function<void(Result<bool>)> done = nullptr);
    // Called when a held lock is lost: our key was deleted or the session expired.
    void onLost(std::function<void(const Error&)> listener);

    const std::string& name() const { return name_; }
    const std::string& key() const { return layout_.key; }
    const std::shared_ptr<Session>& session() const { return session_; }
    State state() const;
    bool held() const { return state() == State::Held; }
    // Our key's create revision: the fencing token while held, 0 before the first acquire.
    int64_t fencingToken() const;
    std::size_t predecessorsLeft() const;

    // The compare that holds only while our key is still our incarnation: put it in a Txn to
    // write only while holding the lock.
    pb::Compare ownerCompare() const;
    // Runs `ops` only while we still hold the lock; done() gets whether they were applied.
    void guardedWrite(std::vector<pb::RequestOp> ops, std::function<void(Result<bool>)> done);

private:
    Mutex(Client& client, std::shared_ptr<Session> session, std::string name, LockLayout layout,
          std::string value);

    // Called with mutex_ held, only while this Mutex lives and `generation` is still current.
    using AcquireDone = std::function<void(std::unique_lock<std::mutex>& lock, const Error&,
                                           bool owner, int64_t myRevision, int64_t revision)>;
    // Moves Idle or Lost to Acquiring; false (and `lock` released) when already busy.
    bool beginAcquire(std::unique_lock<std::mutex>& lock);
    Error busyError() const;
    void acquire(uint64_t generation, AcquireDone done);
    void whileCurrent(uint64_t generation, const AcquireDone& done, const Error& error, bool owner,
                      int64_t myRevision, int64_t revision);
    void snapshot(uint64_t generation);
    void onSnapshot(uint64_t generation, Result<pb::TxnResponse> reply);
    // Whether callbacks of `generation` still matter: it is current and we wait or hold.
    bool watching(uint64_t generation) const; // with mutex_ held
    // Starts over after a failed read or a broken watch: a new watch, then a new read.
    void rewatch(std::unique_lock<std::mutex>& lock);
    void watchAgain(uint64_t generation); // rewatch()'s new watch, after a pause
    // Joins the prefix's shared watch; reads the queue once it runs unless the watch delivers
    // everything after `knownRevision` (0: not read yet).
    void startWatch(std::unique_lock<std::mutex>& lock, int64_t knownRevision);
    void onWatchEvents(uint64_t generation, const pb::WatchResponse& response);
    void onWatchEnd(uint64_t generation, const Error& error);
    void onSessionLost(const Error& error);
    // false (and `lock` released) when the deleted key was ours: the lock is lost.
    bool applyDelete(std::unique_lock<std::mutex>& lock, const std::string& key);
    // Each takes the held lock and returns with it released, after calling out.
    void becomeHeld(std::unique_lock<std::mutex>& lock);
    void fail(std::unique_lock<std::mutex>& lock, const Error& error);
    // After an acquire reply that came too late (cancel or unlock meanwhile): removes the key
    // it created, then answers the waiting unlock() calls and `deleted`.
    void abandonAcquired(std::unique_lock<std::mutex>& lock, int64_t revision,
                         std::function<void(Result<bool>)> deleted = nullptr);
    void loseHeld(std::unique_lock<std::mutex>& lock, const Error& error);

    Client& client_;
    const std::shared_ptr<Session> session_;
    const std::string name_;
    const LockLayout layout_;
    const std::string value_;

    mutable std::mutex mutex_;
    State state_ = State::Idle;
    uint64_t generation_ = 0; // bumped whenever earlier callbacks must be ignored
    int64_t myRevision_ = 0;
    bool cancelRequested_ = false;
    std::vector<std::function<void(Result<bool>)>> pendingUnlocks_; // made while Acquiring
    std::set<std::string> predecessors_;
    int64_t knownRevision_ = 0; // predecessors_ is right as of this revision; 0: not read yet
    std::vector<std::pair<std::string, int64_t>> earlyDeletes_; // delivered before the read
    WatchHandle watch_;
    std::function<void(const Error&)> lockDone_;
    std::vector<std::function<void(const Error&)>> lostListeners_;
};

// Deletes `key` only if it is still the incarnation created at `createRevision`: done() gets
// whether it was (a key re-created since is left alone).
void guardedDelete(Client& client, const std::string& key, int64_t createRevision,
                   std::function<void(Result<bool>)> done);

// After a put-if-absent whose reply never came: its put may have landed. Removes the key if it
// is there on our lease, guarded by the create revision read, so a key re-created since (a new
// acquire adopting it) is never deleted.
void removeUnconfirmedKey(Client& client, const std::string& key, int64_t leaseId);

// Go's acquire Txn: put `key` with `value` on the lease if it does not exist yet; either way
// read it and the first-created key under `prefix` (the holder, or the first blocker of a
// layout's). A key already there gets a non-empty `value` put again, as Go's Campaign
// proclaims a changed proposal.
pb::TxnRequest acquireTxn(const std::string& prefix, const std::string& key, int64_t leaseId,
                          const std::string& value = {});

} // namespace etcd
