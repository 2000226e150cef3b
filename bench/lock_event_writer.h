#pragma once

#include "etcdclient/client.h"
#include "session_leases.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace lockscope::bench {

// Puts and deletes lock keys under a prefix at a steady rate, as contending sessions of Go's
// concurrency.Mutex would: each of `locks` locks is a queue of up to `depth` keys
// <lock>/<lease hex>, one per session, on that session's real lease. A lock's next event
// enqueues the next session or, with the queue full, deletes the holder's key (a release, and
// the next waiter acquires). Writes are pipelined, each issued on time rather than after the
// last, but one lock at a time: a lock's next write waits for its last, so etcd applies them in
// order, and the writer goes on to the next lock with none in flight (waiting only when every
// lock has one, which is when etcd cannot keep up).
class LockEventWriter {
public:
    using Clock = std::chrono::steady_clock;

    LockEventWriter(etcd::Client& client, std::string prefix, int locks = 100, int depth = 4,
                    int sessions = 8);
    // Its sessions' leases are revoked when it goes, which deletes the keys left.
    LockEventWriter(const LockEventWriter&) = delete;
    LockEventWriter& operator=(const LockEventWriter&) = delete;

    // Writes for `duration` at `eventsPerSecond`; returns once etcd has answered every write.
    // Blocks: run it on a thread of its own.
    void run(int eventsPerSecond, Clock::duration duration);

    // When etcd answered each write that made an event, by the revision of that event.
    std::map<int64_t, Clock::time_point> committed() const;
    // The revision of the last event committed; 0 before any.
    int64_t lastRevision() const;
    // Events committed per second over the last run.
    double achievedPerSecond() const;

private:
    // Round robin, the next lock with no write in flight; waits while every lock has one.
    std::size_t nextIdleLock();
    void write(std::size_t lock);
    void answered(std::size_t lock, int64_t revision);

    etcd::Client& client_;
    const std::string prefix_;
    const std::size_t depth_;
    SessionLeases leases_;
    std::vector<std::deque<int>> queues_; // per lock, the sessions queued, holder first
    std::vector<int> nextSession_;        // per lock

    mutable std::mutex mutex_; // guards what the client's thread writes, below
    std::condition_variable answered_;
    std::vector<bool> inFlight_; // per lock
    std::size_t nextLock_ = 0;
    std::map<int64_t, Clock::time_point> committed_;
    Clock::time_point started_{};
    Clock::time_point lastAnswer_{};
};

} // namespace lockscope::bench
