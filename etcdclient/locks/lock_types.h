#pragma once

// The plain values of locks: keys, queues, anomalies, events and a monitor's state. No protobuf
// here, so Qt models and widgets that show locks do not pull in the generated gRPC headers.

#include "etcdclient/locks/lock_name_ranges.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace etcd {

// What a key asks for: the lock alone (a mutex's or an election's key), or a share of an
// RWMutex (etcd's contrib/recipes: <name>/read/<n> and <name>/write/<n>).
enum class KeyMode { Exclusive, Read, Write };
const char* keyModeName(KeyMode mode); // "exclusive", "read", "write"

// One contender's key in a lock's queue.
struct LockKey {
    std::string key;
    int64_t lease = 0;
    int64_t createRevision = 0;
    int64_t modRevision = 0;
    std::string value; // elections keep the candidate's proposal here
    std::chrono::system_clock::time_point enqueuedAt{};
    std::optional<std::chrono::system_clock::time_point> acquiredAt;
    // etcd keeps no time of creation: a key already there when we looked (or that came, or
    // took the lock, during a gap in the watch) has its time from when we first saw it, so
    // how long it has waited or held is a lower bound.
    bool enqueuedBeforeSeen = false;
    bool acquiredBeforeSeen = false;
    KeyMode mode = KeyMode::Exclusive; // last: brace-initialized keys elsewhere leave it out
};

// The recipe a lock follows (docs/design.md §1c). A queue of keys under `<name>/`: a mutex
// (`etcdctl lock`, Go's concurrency.Mutex, etcd's Lock service: every key's value empty), an
// election (`etcdctl elect`, Go's concurrency.Election, node etcd3's elections: Campaign puts
// the candidate's proposal as the value, and Proclaim puts it again, so the leader's mod revision
// passes its create revision; the first key leads instead of holding), or an RWMutex
// (contrib/recipes: readers and writers, the leading readers hold together). Or one key that is
// the lock itself: a single-key lock (python-etcd3, node etcd3's lock(), tooz, leader keys such
// as Patroni's), held by its lease, whose waiters watch the key and hold no key of their own;
// or a key of no known recipe, shown as a lock of its own and never queued with another.
enum class QueueKind { Mutex, Election, RwMutex, SingleKey, Unknown };
// "mutex", "election", "rwmutex", "single-key", "unknown"
const char* queueKindName(QueueKind kind);

// How a prefix's keys are grouped into locks: each key's recipe detected from its shape and its
// lease (Auto), or the one recipe an operator names for every key under the prefix when
// detection cannot decide: Mutex and Election group every key by its parent (as Go's waiters
// see them), RwMutex also reads <name>/read|write/<n>, SingleKey makes every key a lock.
enum class RecipeOverride { Auto, Mutex, Election, RwMutex, SingleKey };
const char* recipeOverrideName(RecipeOverride recipe); // "auto" or the recipe's name
std::optional<RecipeOverride> parseRecipeOverride(const std::string& name);

// The keys of one lock name in create-revision order: the first holds (in an RWMutex, the
// leading readers up to the first writer, or that writer alone), the rest wait.
struct LockQueue {
    std::string name;
    std::vector<LockKey> keys;
    // The lock is its one key (a single-key lock, or a key of no recipe), not a queue of keys
    // under <name>/: its waiters, if any, hold no key and are not visible in etcd.
    bool keyIsLock = false;
    // The operator's recipe (RecipeOverride), which kind() then reports; none when detected.
    std::optional<QueueKind> assumed = std::nullopt;
    const LockKey* holder() const { return keys.empty() ? nullptr : &keys.front(); }
    // How many keys hold: the first holderCount() keys.
    std::size_t holderCount() const;
    // The key the waiter at `index` waits to see deleted, as Go's code does: the nearest older
    // key, or for an RWMutex reader the nearest older writer. Null for a holder.
    const LockKey* waitsOn(std::size_t index) const;
    // The assumed recipe when there is one; a single-key lock (or a key of no recipe, when it
    // has no lease) when the key is the lock; an RWMutex when any key is a reader or writer;
    // else an election when any key carries a value or was put again.
    QueueKind kind() const;
    // Whether waiting keys would be in `keys`: not for a lock whose waiters hold no key.
    bool waitersVisible() const { return !keyIsLock; }
};

// A lock's queue as a table and the copies read from it share it (LockTable, LockMonitorState):
// a copy takes a pointer, not the keys, so a window's copy of a million locks is a map of
// pointers, not a second table (about 400 bytes a lock). Copy-on-write: a queue once copied
// never changes again, and edit() gives its holder a queue of its own first. A copy marks the
// original shared: copy under whatever guards the original, as with any value.
class SharedLockQueue {
public:
    SharedLockQueue();
    SharedLockQueue(LockQueue queue); // implicit: a state is built of queues, as before
    SharedLockQueue(const SharedLockQueue& other);
    SharedLockQueue& operator=(const SharedLockQueue& other);
    SharedLockQueue(SharedLockQueue&&) noexcept = default; // leaves nothing to read
    SharedLockQueue& operator=(SharedLockQueue&&) noexcept = default;

    const LockQueue& operator*() const { return *queue_; }
    const LockQueue* operator->() const { return queue_.get(); }
    // The queue to change: this holder's alone (a copy, when it was shared).
    LockQueue& edit();
    // Whether both hold one queue: a copy neither has edited since.
    bool sameAs(const SharedLockQueue& other) const { return queue_ == other.queue_; }

private:
    std::shared_ptr<LockQueue> queue_;
    mutable bool shared_ = false;
};

// Locks by name, as a table and its readers hold them.
using LockQueues = std::map<std::string, SharedLockQueue>;

enum class AnomalyKind {
    NoLease,       // a key without a lease never expires: it can block the queue forever
    LeaseMismatch, // the hex suffix names another lease than the key is attached to
    NotALockKey,   // in a queue but not <name>/<its lease id>, or a key of no known recipe
    ExpiredLease,  // its lease is already gone, yet the key is still there
};
const char* anomalyKindName(AnomalyKind kind);

struct Anomaly {
    std::string key;
    AnomalyKind kind;
    std::string detail;
    bool operator==(const Anomaly&) const = default;
};
// By lock name, in key order within a lock; a lock without any is absent.
using AnomaliesByLock = std::map<std::string, std::vector<Anomaly>>;

// What happened to a key: it joined a queue (Enqueued), became the holder (Acquired), or left:
// the holder deleted it (Released), a waiter gave up (Cancelled), its lease ran out (Expired), or
// someone else took it away (ForceReleased: a force release this process asked for). Lost is
// never seen in a watch: our own session learnt that a lock it held is gone. Proclaimed: a key
// put again with a new value and the same create revision (an election's leader proclaiming; in
// a lock, its value changed), by any client.
enum class LockEventKind {
    Enqueued,
    Acquired,
    Released,
    Cancelled,
    Expired,
    ForceReleased,
    Lost,
    Proclaimed
};
const char* lockEventKindName(LockEventKind kind);

struct LockEvent {
    LockEventKind kind;
    std::string lock; // the lock's name
    std::string key;
    int64_t lease = 0;
    int64_t revision = 0;
    std::chrono::system_clock::time_point observedAt{};
    // enqueued to acquired (Acquired); unknown for a lock whose waiters hold no key
    std::optional<std::chrono::milliseconds> waited;
    std::optional<std::chrono::milliseconds> held; // acquired to gone, for the holder only
    bool recovered = false;     // inferred by reconciling a re-list after a gap, not seen live
    int64_t createRevision = 0; // the key's; an Acquired holder's fencing token
    // `waited` or `held` began before LockScope saw it (LockKey::enqueuedBeforeSeen): at least.
    bool atLeast = false;
    // A recovered event ended somewhere in the gap before the re-read: its wait or hold lasted
    // at most this (with `waited` or `held` at least, or unknown when it may have ended at once).
    std::optional<std::chrono::milliseconds> waitedAtMost = {};
    std::optional<std::chrono::milliseconds> heldAtMost = {};
    QueueKind recipe = QueueKind::Mutex; // the lock's, as the event left it
};

// What we know of a lease's time to live: the server's answer and when it came, so a display
// can count down locally between refreshes.
struct LeaseTtl {
    int64_t ttlSeconds = 0; // as of fetchedAt; -1 once the lease is gone
    int64_t grantedTtlSeconds = 0;
    std::chrono::steady_clock::time_point fetchedAt{};
    bool jumpedUp = false; // renewed since the last look (a keepalive, or a leader change)
    // Looked up longer ago than its staleness limit (leaseStaleAfter: about its TTL): a whole
    // TTL of keepalives may have gone unseen, so the countdown says nothing of the lease now.
    bool stale = false;

    double remainingAt(std::chrono::steady_clock::time_point now) const;
};

// A time a LockMonitor's view was not live after it had been: from the last word heard from etcd
// (what was shown was current until then) to the end of the re-read that made it live again.
struct WatchOutage {
    std::chrono::system_clock::time_point since;
    std::string reason;                                         // why the view stopped being live
    std::optional<std::chrono::system_clock::time_point> until; // once re-read
    int64_t revision = 0;                                       // re-read at, once over
    uint64_t number = 0;                                        // 1 for this monitor's first outage
};

struct LockMonitorState {
    int64_t revision = 0;
    LockQueues locks;
    AnomaliesByLock anomalies;
    std::map<int64_t, LeaseTtl> leases;
    bool live = false;  // the snapshot is loaded and the watch is running
    std::string status; // why it is not live, when it is not
    int failures = 0;   // lists or watches failed since the view was last live
    // The outage going on, or the last one; none before the first. Here so that a GUI thread
    // never waits for the monitor's lock to learn it: a checkpoint of a million keys holds that
    // lock for hundreds of ms just as the view first goes live.
    std::optional<WatchOutage> outage;
    // A listing in progress: keys read so far, of how many (0 of 0 when none).
    int64_t listedKeys = 0;
    int64_t listingKeys = 0;
    // The locks a bounded update (LockMonitor::tryUpdate) has not copied yet, and how many the
    // monitor has in all.
    LockNameRanges pendingLocks;
    std::size_t lockCount = 0;
    std::size_t waiting = 0; // keys behind their lock's holders, over every lock
    // Which monitor filled it (LockMonitor::update), and as of which of its changes; 0 for none.
    uint64_t monitorId = 0;
    uint64_t locksStamp = 0;
    uint64_t leasesStamp = 0;
};

// What a LockMonitor::update copied.
struct LockChanges {
    bool all = false;               // every lock and anomaly (see update())
    std::vector<std::string> locks; // otherwise the locks copied or removed, in name order
    bool leases = false;            // the lease TTLs
};

} // namespace etcd
