#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/session.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace etcd {

// The second lock backend: etcd's own v3lock service does the acquire and the waiting on the
// server, with our session's lease (which our Session keeps alive). It queues with Mutex and
// `etcdctl lock` on the same keys, <name>/<lease id in hex>. There is no server-side TryLock.
// A wait ends when acquired, when `waitLimit` passes, or on cancel(): the Lock call is closed
// and the server deletes our waiting key itself.
// Thread-safe; callbacks run on the client's thread. The Client must outlive the ServerLock.
class ServerLock : public std::enable_shared_from_this<ServerLock> {
public:
    enum class State { Idle, Waiting, Held, Lost };
    // A wait bounded only by cancel() or the session's end.
    static constexpr std::chrono::milliseconds noWaitLimit = std::chrono::hours(24 * 365);

    static std::shared_ptr<ServerLock> create(Client& client, std::shared_ptr<Session> session,
                                              std::string name);
    // Closes a pending Lock call, and unlocks a held lock.
    ~ServerLock();

    using Done = std::function<void(const Error&)>;
    // done() gets Ok once held; Cancelled after cancel() or unlock(); the session's error when
    // it was lost meanwhile; FailedPrecondition while already waiting or holding; or the
    // call's error (DeadlineExceeded once `waitLimit` passed).
    void lock(std::chrono::milliseconds waitLimit, Done done);
    // Abandons a pending lock(): closes the Lock call, so the server deletes our waiting key.
    void cancel();
    // Deletes our key through the service (a plain delete on the server); a pending lock() is
    // cancelled instead.
    void unlock(std::function<void(const Error&)> done = nullptr);
    // Called when a held lock is lost: the session ended or our key was deleted.
    void onLost(std::function<void(const Error&)> listener);

    const std::string& name() const { return name_; }
    const std::shared_ptr<Session>& session() const { return session_; }
    std::string key() const;      // our key once held, else empty
    int64_t fencingToken() const; // our key's create revision once held
    State state() const;
    bool held() const { return state() == State::Held; }

private:
    ServerLock(Client& client, std::shared_ptr<Session> session, std::string name);
    void onLocked(uint64_t generation, Result<v3lockpb::LockResponse> locked);
    void onKeyRead(uint64_t generation, const std::string& key, Result<pb::RangeResponse> read);
    // Unlocks a key the server granted us after we stopped wanting it.
    void onSessionLost(const Error& error);
    void onKeyEvents(uint64_t generation, const pb::WatchResponse& response);
    // Each takes the held mutex_ and returns with it released, after calling out.
    void finishWait(std::unique_lock<std::mutex>& lock, const Error& error);
    void lose(std::unique_lock<std::mutex>& lock, const Error& error);

    Client& client_;
    const std::shared_ptr<Session> session_;
    const std::string name_;
    mutable std::mutex mutex_;
    State state_ = State::Idle;
    uint64_t generation_ = 0; // bumped whenever earlier callbacks must be ignored
    Done lockDone_;
    CallCanceller call_;
    WatchHandle keyWatch_; // our key while held: its deletion loses the lock
    std::string key_;
    int64_t token_ = 0;
    std::vector<std::function<void(const Error&)>> lostListeners_;
};

} // namespace etcd
