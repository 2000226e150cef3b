#pragma once

#include "etcdclient/locks/lock_types.h"
#include "kv.pb.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace etcd {

// A Range answer's key-values moved out for LockTable::load: a million keys are not copied.
std::vector<mvccpb::KeyValue>
takeKeyValues(google::protobuf::RepeatedPtrField<mvccpb::KeyValue>& kvs);

// Turns lock keys and watch events into locks, holders, queues and lock events. Pure: no I/O,
// no clock of its own; times come in with the data. The lock name is the key without its last
// path segment, so "/my-lock//694d" (a name given with a trailing slash) is lock "/my-lock/";
// an RWMutex reader's or writer's key (<name>/read/<n>, <name>/write/<n>) is lock <name>'s.
class LockTable {
public:
    // Replaces the state with a snapshot at `revision`. The first load reports nothing; a later
    // one (after compaction or a reconnect) reports what the gap implies, marked recovered.
    std::vector<LockEvent> load(const std::vector<mvccpb::KeyValue>& kvs, int64_t revision,
                                std::chrono::system_clock::time_point now);
    // The first load a page at a time (a listing's pages, in key order, at `revision`): each
    // page's keys join the state as it comes, so a display can show them while the rest is
    // read. Reports nothing, as the first load(); `last` ends the load (loaded() is true).
    // Returns the first and last lock name the page touched.
    std::pair<std::string, std::string> loadPage(const std::vector<mvccpb::KeyValue>& kvs,
                                                 int64_t revision,
                                                 std::chrono::system_clock::time_point now,
                                                 bool last);
    // Applies one watch event at `revision`.
    std::vector<LockEvent> apply(const mvccpb::Event& event, int64_t revision,
                                 std::chrono::system_clock::time_point now);
    // Leases known to be gone (LeaseTimeToLive said -1): their keys are anomalies, and their
    // deletions count as expiries rather than releases. True when that was news.
    bool setLeaseExpired(int64_t lease, bool expired);
    // A force release is about to revoke `lease` (or, with lease 0, delete `key`): the deletions
    // it causes are ForceReleased, not Released or Cancelled. Bounded: the oldest expectations go.
    void expectForceRelease(const std::string& key, int64_t lease);

    const std::map<std::string, LockQueue>& locks() const { return locks_; }
    AnomaliesByLock anomalies() const;
    std::vector<Anomaly> anomaliesOf(const LockQueue& queue) const;
    int64_t revision() const { return revision_; }
    // Keys waiting behind their lock's holders, over every lock: kept as keys come and go, so a
    // million locks are not walked to chart the queues' depth.
    std::size_t waiting() const { return waiting_; }
    // Each lease in use (never 0): how many keys it carries and how many of those hold. Kept as
    // keys come and go, so the lease lookups go through the leases, not through every key.
    struct LeaseUse {
        std::size_t keys = 0;
        std::size_t holding = 0;
        bool operator==(const LeaseUse&) const = default;
    };
    const std::unordered_map<int64_t, LeaseUse>& leaseUses() const { return leaseUses_; }
    bool loaded() const { return loaded_; }

    static std::string lockNameOf(const std::string& key);
    // Read or Write for the RWMutex recipe's keys: <name>/read/<n> or <name>/write/<n> where n
    // is a time in nanoseconds (decimal, more than 16 digits: never a lease id in hex, so never
    // a Go Mutex's key); Exclusive for any other key.
    static KeyMode modeOf(const std::string& key);
    // The lease a Go lock key names: its last segment in lowercase hex, or nothing when the
    // key is not shaped <name>/<lease id in hex>.
    static std::optional<int64_t> leaseNamedBy(const std::string& key);

private:
    LockKey* find(const std::string& key);
    // A key put again with its create revision: its value, its mod revision, its lease.
    void refresh(LockKey& k, const mvccpb::KeyValue& kv);
    void insert(LockKey key, int64_t revision, bool recovered, std::vector<LockEvent>& out);
    void erase(const std::string& key, int64_t revision, std::chrono::system_clock::time_point now,
               bool recovered, std::vector<LockEvent>& out);
    // Why the key `gone` left its queue, which it held or not.
    LockEventKind departure(const LockKey& gone, bool wasHolder);
    // Whether a key inserted, or a holder found, now came before we could see it: during the
    // first load (it was already there) or in a gap a re-list reconciles.
    bool unseen(bool recovered) const;
    // What the table counts of `queue` (its waiting keys, its holders' leases) counts it `delta`
    // times more: -1 before the queue changes, +1 after. countKey counts a key of `lease`.
    void countQueue(const LockQueue& queue, int delta);
    void countKey(int64_t lease, int delta);
    // After the queue changed: the keys that hold now and did not are Acquired; any among the
    // first `heldBefore` that no longer holds (an older key arrived out of order) did not hold
    // after all.
    void noteHolders(LockQueue& queue, int64_t revision, std::chrono::system_clock::time_point now,
                     bool recovered, std::vector<LockEvent>& out, std::size_t heldBefore = 0);

    std::map<std::string, LockQueue> locks_;
    std::set<int64_t> expiredLeases_;
    std::deque<std::pair<std::string, int64_t>> forceReleases_; // expected, oldest first
    int64_t revision_ = 0;
    bool loaded_ = false;
    std::size_t waiting_ = 0;
    std::unordered_map<int64_t, LeaseUse> leaseUses_;
};

} // namespace etcd
