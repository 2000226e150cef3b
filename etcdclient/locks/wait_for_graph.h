#pragma once

#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace etcd {

// A session: the lease its keys are on. Go's concurrency.Session puts every Mutex and Election
// of one client on one lease, so one lease holding /a and waiting in /b is one client holding a
// and waiting for b. A key without a lease is a session of its own, named by the key.
struct SessionId {
    int64_t lease = 0;
    std::string key; // only for a key without a lease
    auto operator<=>(const SessionId&) const = default;
    static SessionId of(const LockKey& key) { return of(key.lease, key.key); }
    static SessionId of(int64_t lease, const std::string& key) {
        return lease != 0 ? SessionId{lease, {}} : SessionId{0, key};
    }
};

// A waiting key and the key it waits to see deleted (LockQueue::waitsOn), with their sessions.
struct Wait {
    std::string lock;
    std::string waitingKey;
    std::string onKey;
    SessionId waiter;
    SessionId on;
    std::chrono::system_clock::time_point since{}; // the waiting key's LockKey::enqueuedAt
    bool sinceAtLeast = false;                     // it waited before LockScope saw it
    bool operator==(const Wait&) const = default;
};

// Sessions each waiting on the next, round to the first: none lets go until a lease ends, and a
// kept-alive lease never does. Revoking breakBy's lease ends it, handing on the fewest locks
// that others wait for.
struct Deadlock {
    std::vector<SessionId> sessions; // in order
    std::vector<Wait> waits;         // the waits among them
    SessionId breakBy;
    std::size_t breakLosesHeld = 0; // held(breakBy): handed on when its lease goes
};

// A session that waits on nobody while others wait on it, directly or through others.
struct RootBlocker {
    SessionId session;
    std::size_t held = 0;       // WaitForGraph::held
    std::size_t direct = 0;     // sessions waiting on it
    std::size_t transitive = 0; // sessions it blocks, directly or through others
    // The oldest wait among the sessions it blocks.
    std::chrono::system_clock::time_point oldestWaitSince{};
    bool oldestAtLeast = false;
};

// Who waits for whom across every lock under a prefix: sessions are nodes, a waiting key gives
// an edge from its session to the session of the key it waits on. Only recipes whose waiters
// hold keys are seen (a single-key lock's waiters are invisible). A session waiting on itself
// (two keys of one lease in an RWMutex) is not an edge. Pure: kept up to date a lock at a time
// from the same changes as the lock table, so an event costs O(its lock), not O(all locks);
// the questions walk only sessions that wait or are waited on.
class WaitForGraph {
public:
    // Lock `name` is now `queue`; null when it is gone.
    void setLock(const std::string& name, const LockQueue* queue);
    // The locks `names` lists, each as `locks` has it now (gone when it has none of that name):
    // what LockTable::touched() lists after a change, for one.
    void setLocks(const std::vector<std::string>& names, const LockQueues& locks);
    // What a LockMonitor::update copied into `locks`: every lock, or the ones it names.
    void apply(const LockChanges& changes, const LockQueues& locks);
    // The graph of every lock in `locks`.
    static WaitForGraph of(const LockQueues& locks);
    void clear();

    std::size_t sessionsWaiting() const { return waitsFrom_.size(); }
    // What `session` waits on, by waiting key; and the waits on it.
    std::vector<Wait> waitsFrom(const SessionId& session) const;
    std::vector<Wait> waitsOn(const SessionId& session) const;
    // The keys `session` holds in locks that someone waits for. Locks nobody waits for are not
    // kept at all: a million uncontended locks cost the graph nothing.
    std::size_t held(const SessionId& session) const;
    // The root blockers `session` waits for in the end (none when it waits on nobody, or only
    // on a deadlock).
    std::vector<SessionId> rootsOf(const SessionId& session) const;
    // Most sessions blocked first, then the oldest wait.
    std::vector<RootBlocker> rootBlockers() const;
    // The waits that lead to `session`, directly or through others, nearest first: its tree
    // of waiters.
    std::vector<Wait> waitsBehind(const SessionId& session) const;
    // Every group of sessions that wait on each other in a cycle, each once.
    std::vector<Deadlock> deadlocks() const;

    bool operator==(const WaitForGraph&) const = default;

private:
    void add(const Wait& wait);
    void remove(const Wait& wait);

    std::map<std::string, std::vector<Wait>> waitsByLock_;
    std::map<std::string, std::vector<SessionId>> holdersByLock_;
    // A session's waits, by waiting key (a key is in one lock).
    std::map<SessionId, std::map<std::string, Wait>> waitsFrom_;
    // Who waits on a session, and by how many keys.
    std::map<SessionId, std::map<SessionId, std::size_t>> waitedOnBy_;
    std::map<SessionId, std::size_t> held_;
};

} // namespace etcd
