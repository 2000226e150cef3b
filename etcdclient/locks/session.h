#pragma once

#include "etcdclient/client.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>

namespace etcd {

// A lease kept alive every TTL/6, as a lock holder's identity (Go's concurrency.Session).
// It knows the earliest moment the server may expire the lease (the send time of the last
// answered keepalive + TTL); while keepalive answers run late it asks LeaseTimeToLive of any
// member, whose answer can move that moment on. It reports the session lost when etcd says the
// lease is gone, or when the safe deadline (that moment less a margin) passes unconfirmed: before
// a successor could take a lock this session held.
// Thread-safe. Callbacks run on the client's thread. The Client must outlive its sessions.
class Session : public std::enable_shared_from_this<Session> {
public:
    static constexpr int64_t defaultTtlSeconds = 10; // as `etcdctl lock`

    using Created = std::function<void(Result<std::shared_ptr<Session>>)>;
    // Grants a lease (the server may raise a TTL below its minimum) and starts keepalives.
    static void create(Client& client, int64_t ttlSeconds, Created done);

    // Revokes the lease unless close() or orphan() ran: its lock keys go with it.
    ~Session();

    int64_t leaseId() const { return leaseId_; }
    int64_t ttlSeconds() const;
    std::chrono::steady_clock::time_point deadline() const;
    // deadline() less a margin for our clock running slower than etcd's and for the moment it
    // takes to act on it: what a holder must have stopped by (lockscopectl kills its command
    // then), since a successor may hold the lock from deadline() on.
    std::chrono::steady_clock::time_point safeDeadline() const;
    bool lost() const;

    // Called once when the session is lost (also at once if it already is).
    void onLost(std::function<void(const Error&)> listener);

    // Revokes the lease; done() gets the revoke's outcome.
    void close(std::function<void(const Error&)> done = nullptr);
    // Stops keepalives without revoking: the lease expires by itself after its TTL.
    void orphan();
    // Stops (true) or resumes (false) keepalives without giving up the lease: a stalled holder.
    void setPaused(bool paused);
    bool paused() const;

private:
    Session(Client& client, int64_t leaseId, int64_t ttlSeconds);
    void startKeepAlive();
    void stopKeepAlive();
    void scheduleDeadlineCheck(std::chrono::milliseconds wait);
    void onAnswer(const KeepAliveAnswer& answer);
    void checkDeadline();
    void probeLease(std::chrono::milliseconds untilDeadline);
    void markLost(const Error& error);

    Client& client_;
    const int64_t leaseId_;
    mutable std::mutex mutex_;
    int64_t ttl_;
    std::chrono::steady_clock::time_point deadline_;
    KeepAliveHandle keepAlive_;
    bool paused_ = false;
    bool checkPending_ = false;
    bool released_ = false; // closed or orphaned
    std::optional<Error> lost_;
    std::vector<std::function<void(const Error&)>> lostListeners_;
};

} // namespace etcd
