#pragma once

#include "etcdclient/locks/anomaly_changes.h"
#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace lockscope {

// The plain values of a recorded lock history (LockHistoryStore writes and reads them; docs/
// design.md §5 has the rules).

// A time the recording may have missed events: the watch was not live (an outage, a compaction)
// or nothing recorded (the recorder was stopped). What happened in it is known only from the
// state re-read at `revision`, which the checkpoint after the gap holds, and from the events the
// re-read reconciled (marked recovered).
struct HistoryGap {
    std::chrono::system_clock::time_point since; // the last word heard before it
    std::chrono::system_clock::time_point until; // the re-read that ended it
    int64_t revision = 0;                        // re-read at
    std::string reason;
};

// One key of a checkpoint: where it stood in its lock's queue at the checkpoint's revision, and
// what the live view knew of it then that etcd does not keep, so a replay can start at the
// checkpoint without the events before it.
struct HistoryKey {
    std::string lock;
    std::string key;
    int64_t lease = 0;
    int64_t createRevision = 0; // the holder's fencing token
    int64_t modRevision = 0;
    etcd::QueueKind recipe = etcd::QueueKind::Mutex; // the lock's
    bool holds = false;
    // When it was enqueued (none in a checkpoint recorded before times were kept, schema 2: its
    // replay learns them from the events before it) and acquired, and whether either was before
    // the live view saw it (etcd::LockKey's).
    std::optional<std::chrono::system_clock::time_point> enqueuedAt = std::nullopt;
    std::optional<std::chrono::system_clock::time_point> acquiredAt = std::nullopt;
    bool enqueuedBeforeSeen = false;
    bool acquiredBeforeSeen = false;
    bool leaseGone = false; // a lease lookup found its lease gone (AnomalyKind::ExpiredLease)
};

// The whole lock state at a revision: at the start of a recording, after every gap and
// periodically, so a reader can start anywhere and check what the events between imply.
struct HistoryCheckpoint {
    int64_t revision = 0;
    std::chrono::system_clock::time_point at;
    std::string reason;           // "start", "resync" (after a gap) or "periodic"
    std::vector<HistoryKey> keys; // by lock, then queue order
    int64_t seq = 0;              // its place among the entries, when read from a store
};

// A live view's locks to record as a checkpoint: the queues it shares with its monitor (a
// pointer a lock, in name order), made into HistoryKeys one at a time as the recorder writes
// them. A million keys made into HistoryKeys at once were about 320 bytes each in flight, and
// kept the monitor's lock the while; a copy of the monitor's map of names was 128 bytes a lock,
// still in flight while the recorder wrote them.
struct LiveCheckpoint {
    int64_t revision = 0;
    std::chrono::system_clock::time_point at;
    std::string reason;
    std::vector<etcd::SharedLockQueue> locks;
    etcd::AnomaliesByLock anomalies; // of those locks: the leases gone
};

// An anomaly that appeared on a key or went from it, seen once the events at `revision` were in
// (the events that caused it come before it).
struct HistoryAnomaly {
    etcd::AnomalyChange change;
    int64_t revision = 0;
    std::chrono::system_clock::time_point at;
};

// One lock event, gap or anomaly change, in the order recorded.
using HistoryEntry = std::variant<etcd::LockEvent, HistoryGap, HistoryAnomaly>;

// Every key of `locks`, as a checkpoint holds them; `anomalies` are theirs (the leases gone).
std::vector<HistoryKey> historyKeysOf(const etcd::LockQueues& locks,
                                      const etcd::AnomaliesByLock& anomalies);
// The keys of one lock the same way, each handed to `each` in queue order, none kept.
void forEachHistoryKey(const etcd::LockQueue& lock, const etcd::AnomaliesByLock& anomalies,
                       const std::function<void(const HistoryKey&)>& each);
// The queues of `locks`, shared (copy under whatever guards `locks`), in name order.
std::vector<etcd::SharedLockQueue> sharedQueuesOf(const etcd::LockQueues& locks);

} // namespace lockscope
