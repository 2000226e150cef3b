#pragma once

#include "etcdclient/locks/lock_types.h"
#include "kv.pb.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace etcd {

// A Range answer's key-values moved out for LockTable::load: a million keys are not copied.
std::vector<mvccpb::KeyValue>
takeKeyValues(google::protobuf::RepeatedPtrField<mvccpb::KeyValue>& kvs);

// What a view saw of a key's times, carried into the next table over the same cluster (a prefix
// left and watched again): a key still there with the same create revision keeps them, so its
// wait or hold does not start over as a lower bound. etcd keeps no times; only a watcher does.
struct SeenTimes {
    int64_t createRevision = 0;
    std::chrono::system_clock::time_point enqueuedAt{};
    std::optional<std::chrono::system_clock::time_point> acquiredAt;
    bool enqueuedBeforeSeen = false;
    bool acquiredBeforeSeen = false;
};
using SeenTimesByKey = std::unordered_map<std::string, SeenTimes>;
// Adds the times of every key of `locks` to `seen`, while it holds fewer than `most` keys.
void addSeenTimes(const LockQueues& locks, SeenTimesByKey& seen, std::size_t most);
// Adds the keys of `from` that `seen` lacks, while it holds fewer than `most` keys.
void addSeenTimes(const SeenTimesByKey& from, SeenTimesByKey& seen, std::size_t most);

// Turns lock keys and watch events into locks, holders, queues and lock events. Pure: no I/O,
// no clock of its own; times come in with the data. Which keys form one lock is the recipes'
// rule (docs/design.md §1c): a key whose last segment names its own lease (in hex, as Go's
// recipes write it, or in decimal, as node etcd3's elections do) makes its parent a queue, so
// "/my-lock//694d" (a name given with a trailing slash) is in lock "/my-lock/", and so is every
// other key directly under "/my-lock//", as Go's waiters see them; an RWMutex reader's or
// writer's key (<name>/read/<n>, <name>/write/<n>) makes <name> one. Any other key is a lock of
// its own: a single-key lock when it has a lease. Two keys share a queue only so.
class LockTable {
public:
    // `seen`: what an earlier view saw of keys that may be here (SeenTimes), or null.
    explicit LockTable(RecipeOverride recipe = RecipeOverride::Auto,
                       std::shared_ptr<const SeenTimesByKey> seen = nullptr)
        : recipe_(recipe)
        , seen_(std::move(seen)) {}

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

    // Shared with the copies read from it (SharedLockQueue): copy them under the table's guard.
    const LockQueues& locks() const { return locks_; }
    // The locks moved out, for a one-off read that only prints them (a hundred thousand keys
    // are not copied): the table is left empty, as if new.
    LockQueues takeLocks();
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
        // The lock of each of its keys, by the name in locks() (a map key: its address stays
        // while the lock has keys), the first inline since most leases carry one key. An
        // expiry touches these locks, not every lock.
        const std::string* firstLock = nullptr;
        std::vector<const std::string*> moreLocks = {};
        bool operator==(const LeaseUse& other) const {
            return keys == other.keys && holding == other.holding;
        }
    };
    const std::unordered_map<int64_t, LeaseUse>& leaseUses() const { return leaseUses_; }
    bool loaded() const { return loaded_; }
    // The locks `lease` has keys in, each once, in name order (none for lease 0 or unknown).
    std::vector<std::string> locksOfLease(int64_t lease) const;
    // Copying would leave LeaseUse's lock names pointing into the original.
    LockTable(const LockTable&) = delete;
    LockTable& operator=(const LockTable&) = delete;
    LockTable(LockTable&&) = default;
    LockTable& operator=(LockTable&&) = default;

    // The key as the table has it now (its lease, its revisions), or null when it has none of
    // that name. Non-const only for the lookup it shares with apply().
    const LockKey* find(const std::string& key);
    // The lock `key` is in, now: which depends on the keys beside it (see the class comment).
    std::string lockNameOf(const std::string& key) const;
    // The locks the last load, loadPage or apply changed (added to, removed, or regrouped).
    const std::vector<std::string>& touched() const { return touched_; }
    // Read or Write for the RWMutex recipe's keys: <name>/read/<n> or <name>/write/<n> where n
    // is a time in nanoseconds (decimal, more than 16 digits: never a lease id in hex, so never
    // a Go Mutex's key); Exclusive for any other key.
    static KeyMode modeOf(const std::string& key);
    // The lease a Go lock key names: its last segment in lowercase hex, or nothing when the
    // key is not shaped <name>/<lease id in hex>.
    static std::optional<int64_t> leaseNamedBy(const std::string& key);
    // Whether the key's last segment is `lease` (not 0) in lowercase hex or in decimal.
    static bool namesItsLease(std::string_view key, int64_t lease);
    // The queue a key of `lease` makes under Auto: its parent when it names its lease, its
    // RWMutex name when it is a reader or writer; nothing for any other key. A part of `key`.
    std::optional<std::string_view> queueMadeBy(const std::string& key, int64_t lease) const;

private:
    using Locks = LockQueues;
    // The lock `key` is in now (end() when there is none): one lookup for a key in a queue.
    Locks::iterator lockOf(const std::string& key);
    // What an earlier view saw of `key`, if it is the same key (its create revision).
    const SeenTimes* seenBefore(const LockKey& key) const;
    // Whether a key of `queue` still makes it one (queueMadeBy).
    bool madeByItsKeys(const LockQueue& queue) const;
    // Whether `name` is a queue now (Auto: a key under it names its lease, or is an RWMutex's).
    bool isQueue(const std::string& name) const;
    // A first key that makes `queue` one arrives: the keys that were locks of their own beside
    // it join it (the one named like it is listed apart). Regrouping reports no events: nothing
    // left etcd.
    Locks::iterator becomeQueue(const std::string& queue,
                                std::chrono::system_clock::time_point now);
    // No key makes `queue` one any more: its keys, and the key named like it listed apart, are
    // locks of their own.
    void endQueue(const std::string& queue, std::chrono::system_clock::time_point now);
    // Moves a lock's keys into `into` and erases the lock; returns the next lock.
    Locks::iterator take(Locks::iterator lock, std::vector<LockKey>& into);
    // A lock made (+1) or gone (-1): the counts of locks of their own, and of those listed apart.
    void countLock(const LockQueue& lock, int delta);
    // Puts keys taken out back, each in the lock it is in now, keeping their times.
    void place(std::vector<LockKey> moving, std::chrono::system_clock::time_point now);
    // A lock changed: listed in touched_, or, while a page loads, widening touchedRange_.
    void touch(const std::string& lock);
    // A key put again with its create revision: its value, its mod revision, its lease. A new
    // value is a Proclaimed event.
    void refresh(const LockKey& known, const mvccpb::KeyValue& kv, int64_t revision,
                 std::chrono::system_clock::time_point now, bool recovered,
                 std::vector<LockEvent>& out);
    void insert(LockKey key, int64_t revision, bool recovered, std::vector<LockEvent>& out);
    void erase(const std::string& key, int64_t revision, std::chrono::system_clock::time_point now,
               bool recovered, std::vector<LockEvent>& out);
    // Why the key `gone` left its queue, which it held or not.
    LockEventKind departure(const LockKey& gone, bool wasHolder);
    // Whether a key inserted, or a holder found, now came before we could see it: during the
    // first load (it was already there) or in a gap a re-list reconciles.
    bool unseen(bool recovered) const;
    // What the table counts of `queue` (its waiting keys, its holders' leases) counts it `delta`
    // times more: -1 before the queue changes, +1 after. countKey counts a key of `lease` in the
    // lock named `lock` (a key of locks_), linked in LeaseUse's locks.
    void countQueue(const LockQueue& queue, int delta);
    void countKey(int64_t lease, const std::string& lock, int delta);
    // A key of `lease` is now in the lock named `lock`, or no longer: in LeaseUse's locks (a key
    // moving between locks keeps its count).
    void linkLease(int64_t lease, const std::string& lock);
    void unlinkLease(int64_t lease, const std::string& lock);
    // After the queue changed: the keys that hold now and did not are Acquired; any among the
    // first `heldBefore` that no longer holds (an older key arrived out of order) did not hold
    // after all.
    void noteHolders(LockQueue& queue, int64_t revision, std::chrono::system_clock::time_point now,
                     bool recovered, std::vector<LockEvent>& out, std::size_t heldBefore = 0);

    RecipeOverride recipe_;
    std::shared_ptr<const SeenTimesByKey> seen_;
    LockQueues locks_;
    std::vector<std::string> touched_;
    std::optional<std::pair<std::string, std::string>> touchedRange_; // a page's, while it loads
    bool loadingPage_ = false;
    // While a page loads: how many of its keys share each parent (loadPage), by parent.
    const std::unordered_map<std::string_view, std::size_t>* pageRuns_ = nullptr;
    std::string nameBuffer_; // insert()'s queue name, its room kept between keys
    // Locks whose key is the lock, and those of them listed apart (named like a queue): while
    // there are none, a new queue has nothing to take in and nothing to look for.
    std::size_t ownLocks_ = 0;
    std::size_t listedApart_ = 0;
    std::set<int64_t> expiredLeases_;
    std::deque<std::pair<std::string, int64_t>> forceReleases_; // expected, oldest first
    int64_t revision_ = 0;
    bool loaded_ = false;
    std::size_t waiting_ = 0;
    std::unordered_map<int64_t, LeaseUse> leaseUses_;
};

} // namespace etcd
