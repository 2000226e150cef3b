#pragma once

#include "kv.pb.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace etcd {

// One contender's key in a lock's queue.
struct LockKey {
    std::string key;
    int64_t lease = 0;
    int64_t createRevision = 0;
    int64_t modRevision = 0;
    std::string value; // elections keep the candidate's proposal here
    std::chrono::system_clock::time_point enqueuedAt{};
    std::optional<std::chrono::system_clock::time_point> acquiredAt;
};

// The keys of one lock name in create-revision order: the first holds, the rest wait.
struct LockQueue {
    std::string name;
    std::vector<LockKey> keys;
    const LockKey* holder() const { return keys.empty() ? nullptr : &keys.front(); }
};

enum class AnomalyKind {
    NoLease,       // a key without a lease never expires: it can block the queue forever
    LeaseMismatch, // the hex suffix names another lease than the key is attached to
    NotALockKey,   // not <name>/<lease id in hex>
    ExpiredLease,  // its lease is already gone, yet the key is still there
};
const char* anomalyKindName(AnomalyKind kind);

struct Anomaly {
    std::string key;
    AnomalyKind kind;
    std::string detail;
};
// By lock name, in key order within a lock; a lock without any is absent.
using AnomaliesByLock = std::map<std::string, std::vector<Anomaly>>;

enum class LockEventKind { Enqueued, Acquired, Released, Expired };
const char* lockEventKindName(LockEventKind kind);

struct LockEvent {
    LockEventKind kind;
    std::string lock; // the lock's name
    std::string key;
    int64_t lease = 0;
    int64_t revision = 0;
    std::chrono::system_clock::time_point observedAt{};
    std::optional<std::chrono::milliseconds> waited; // enqueued to acquired (Acquired)
    std::optional<std::chrono::milliseconds> held;   // acquired to gone (Released, Expired)
    bool recovered = false; // inferred by reconciling a re-list after a gap, not seen live
};

// Turns lock keys and watch events into locks, holders, queues and lock events. Pure: no I/O,
// no clock of its own; times come in with the data. The lock name is the key without its last
// path segment, so "/my-lock//694d" (a name given with a trailing slash) is lock "/my-lock/".
class LockTable {
public:
    // Replaces the state with a snapshot at `revision`. The first load reports nothing; a later
    // one (after compaction or a reconnect) reports what the gap implies, marked recovered.
    std::vector<LockEvent> load(const std::vector<mvccpb::KeyValue>& kvs, int64_t revision,
                                std::chrono::system_clock::time_point now);
    // Applies one watch event at `revision`.
    std::vector<LockEvent> apply(const mvccpb::Event& event, int64_t revision,
                                 std::chrono::system_clock::time_point now);
    // Leases known to be gone (LeaseTimeToLive said -1): their keys are anomalies, and their
    // deletions count as expiries rather than releases. True when that was news.
    bool setLeaseExpired(int64_t lease, bool expired);

    const std::map<std::string, LockQueue>& locks() const { return locks_; }
    AnomaliesByLock anomalies() const;
    std::vector<Anomaly> anomaliesOf(const LockQueue& queue) const;
    int64_t revision() const { return revision_; }
    bool loaded() const { return loaded_; }

    static std::string lockNameOf(const std::string& key);

private:
    LockKey* find(const std::string& key);
    void insert(LockKey key, int64_t revision, bool recovered, std::vector<LockEvent>& out);
    void erase(const std::string& key, int64_t revision, std::chrono::system_clock::time_point now,
               bool recovered, std::vector<LockEvent>& out);
    void noteNewHolder(LockQueue& queue, int64_t revision,
                       std::chrono::system_clock::time_point now, bool recovered,
                       std::vector<LockEvent>& out);

    std::map<std::string, LockQueue> locks_;
    std::set<int64_t> expiredLeases_;
    int64_t revision_ = 0;
    bool loaded_ = false;
};

} // namespace etcd
