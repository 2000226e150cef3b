#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/session.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace etcd {

// A single-key lock, taken as python-etcd3's Lock, node etcd3's lock() and tooz take theirs
// (docs/design.md §1c): the key is the lock's name itself, put only while absent
// (create_revision == 0) with our session's lease and `value`; while another's key is there we
// hold nothing and watch that key, and try again once it is deleted. So it excludes those
// clients both ways. Unlock deletes the key only while it is our incarnation. The fencing token
// is our key's create revision. There is no queue: whoever puts first after a delete wins.
//
// Thread-safe; callbacks run on the client's thread. The Client must outlive the lock.
// Destroying a lock that still has its key deletes it (guarded by its create revision).
class SingleKeyLock : public std::enable_shared_from_this<SingleKeyLock> {
public:
    static std::shared_ptr<SingleKeyLock> create(Client& client, std::shared_ptr<Session> session,
                                                 std::string key, std::string value = {});
    ~SingleKeyLock();

    // Waits until held: Ok, Cancelled after cancel() or unlock(), or the error that ended it
    // (the session lost, a failed call).
    void lock(std::function<void(const Error&)> done);
    // true: held now; false: another's key is there.
    void tryLock(std::function<void(Result<bool>)> done);
    // Ends a pending lock() with Cancelled; nothing of ours is left (a waiter holds no key).
    void cancel();
    // Deletes our key while it is still ours; Ok once no key of ours is left.
    void unlock(std::function<void(const Error&)> done);
    // Called when a held lock is lost: our key was deleted or the session expired.
    void onLost(std::function<void(const Error&)> listener);
    bool held() const;
    const std::string& key() const { return key_; }
    int64_t fencingToken() const;

private:
    enum class State { Idle, Trying, Waiting, Held };
    // What one put-if-absent found: held (our key, created at `revision`), or another's key,
    // there as of `revision`.
    struct Attempt {
        bool held = false;
        int64_t revision = 0;
    };
    using TryDone = std::function<void(std::unique_lock<std::mutex>& lock, Result<Attempt>)>;

    SingleKeyLock(Client& client, std::shared_ptr<Session> session, std::string key,
                  std::string value);
    // Idle to Trying, keeping `lockDone` (when given) for lock()'s answer: the attempt's
    // generation, or nothing when already taking or holding.
    std::optional<uint64_t> beginTrying(std::function<void(const Error&)>* lockDone);
    // The put-if-absent Txn; `done` runs with mutex_ held while `generation` is current.
    void attempt(uint64_t generation, TryDone done);
    // Waits for the DELETE of another's key, seen from `fromRevision` on, then tries again.
    void waitForDelete(std::unique_lock<std::mutex>& lock, int64_t fromRevision);
    void onWaitEvents(uint64_t generation, const pb::WatchResponse& response);
    void onWaitEnd(uint64_t generation, const Error& error);
    void tryAfterWait(uint64_t generation);
    // Watches the key's deletions from `fromRevision` on, in place of the watch before (ended
    // outside mutex_, held in `lock`).
    void watchDeletions(std::unique_lock<std::mutex>& lock, int64_t fromRevision,
                        WatchCallbacks callbacks);
    // Watches our own key while held: its DELETE (a force release) loses the lock.
    void watchOwnKey(std::unique_lock<std::mutex>& lock);
    void onOwnKeyEvents(uint64_t generation, const pb::WatchResponse& response);
    void onSessionLost(const Error& error);
    void tryAgain(uint64_t generation);
    // Each ends the current wait or hold and calls out with `lock` released.
    void finishLock(std::unique_lock<std::mutex>& lock, const Error& error);
    void loseHeld(std::unique_lock<std::mutex>& lock, const Error& error);

    Client& client_;
    const std::shared_ptr<Session> session_;
    const std::string key_;
    const std::string value_;

    mutable std::mutex mutex_;
    State state_ = State::Idle;
    uint64_t generation_ = 0; // bumped whenever earlier callbacks must be ignored
    int64_t myRevision_ = 0;
    WatchHandle watch_;
    std::function<void(const Error&)> lockDone_;
    std::vector<std::function<void(const Error&)>> lostListeners_;
};

} // namespace etcd
