#pragma once

// The plain values of locks: keys, queues, anomalies, events and a monitor's state. No protobuf
// here, so Qt models and widgets that show locks do not pull in the generated gRPC headers.

#include "etcdclient/locks/lock_name_ranges.h"

#include <chrono>
#include <cstdint>
#include <map>
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

// What a queue is: a mutex (`etcdctl lock`: every key's value empty) or an election
// (`etcdctl elect`: Campaign puts the candidate's proposal as the value, and the leader's
// Proclaim puts it again, so its mod revision passes its create revision). The keys and the
// order are the same; the first key leads instead of holding. Or an RWMutex (contrib/recipes),
// whose keys are readers and writers: the leading readers hold together.
enum class QueueKind { Mutex, Election, RwMutex };
const char* queueKindName(QueueKind kind); // "mutex", "election", "rwmutex"

// The keys of one lock name in create-revision order: the first holds (in an RWMutex, the
// leading readers up to the first writer, or that writer alone), the rest wait.
struct LockQueue {
    std::string name;
    std::vector<LockKey> keys;
    const LockKey* holder() const { return keys.empty() ? nullptr : &keys.front(); }
    // How many keys hold: the first holderCount() keys.
    std::size_t holderCount() const;
    // The key the waiter at `index` waits to see deleted, as Go's code does: the nearest older
    // key, or for an RWMutex reader the nearest older writer. Null for a holder.
    const LockKey* waitsOn(std::size_t index) const;
    // An RWMutex when any key is a reader or writer; else an election when any key carries a
    // value or was put again.
    QueueKind kind() const;
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

// What happened to a key: it joined a queue (Enqueued), became the holder (Acquired), or left:
// the holder deleted it (Released), a waiter gave up (Cancelled), its lease ran out (Expired), or
// someone else took it away (ForceReleased: a force release this process asked for). Lost is
// never seen in a watch: our own session learnt that a lock it held is gone.
enum class LockEventKind { Enqueued, Acquired, Released, Cancelled, Expired, ForceReleased, Lost };
const char* lockEventKindName(LockEventKind kind);

struct LockEvent {
    LockEventKind kind;
    std::string lock; // the lock's name
    std::string key;
    int64_t lease = 0;
    int64_t revision = 0;
    std::chrono::system_clock::time_point observedAt{};
    std::optional<std::chrono::milliseconds> waited; // enqueued to acquired (Acquired)
    std::optional<std::chrono::milliseconds> held;   // acquired to gone, for the holder only
    bool recovered = false;     // inferred by reconciling a re-list after a gap, not seen live
    int64_t createRevision = 0; // the key's; an Acquired holder's fencing token
    // `waited` or `held` began before LockScope saw it (LockKey::enqueuedBeforeSeen): at least.
    bool atLeast = false;
};

// What we know of a lease's time to live: the server's answer and when it came, so a display
// can count down locally between refreshes.
struct LeaseTtl {
    int64_t ttlSeconds = 0; // as of fetchedAt; -1 once the lease is gone
    int64_t grantedTtlSeconds = 0;
    std::chrono::steady_clock::time_point fetchedAt{};
    bool jumpedUp = false; // renewed since the last look (a keepalive, or a leader change)

    double remainingAt(std::chrono::steady_clock::time_point now) const;
};

struct LockMonitorState {
    int64_t revision = 0;
    std::map<std::string, LockQueue> locks;
    AnomaliesByLock anomalies;
    std::map<int64_t, LeaseTtl> leases;
    bool live = false;  // the snapshot is loaded and the watch is running
    std::string status; // why it is not live, when it is not
    int failures = 0;   // lists or watches failed since the view was last live
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
