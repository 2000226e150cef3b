#pragma once

#include "etcdclient/locks/anomaly_changes.h"
#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <cstdint>
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

// One key of a checkpoint: where it stood in its lock's queue at the checkpoint's revision.
struct HistoryKey {
    std::string lock;
    std::string key;
    int64_t lease = 0;
    int64_t createRevision = 0; // the holder's fencing token
    int64_t modRevision = 0;
    etcd::QueueKind recipe = etcd::QueueKind::Mutex; // the lock's
    bool holds = false;
};

// The whole lock state at a revision: at the start of a recording, after every gap and
// periodically, so a reader can start anywhere and check what the events between imply.
struct HistoryCheckpoint {
    int64_t revision = 0;
    std::chrono::system_clock::time_point at;
    std::string reason;           // "start", "resync" (after a gap) or "periodic"
    std::vector<HistoryKey> keys; // by lock, then queue order
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

// Every key of `locks`, as a checkpoint holds them.
std::vector<HistoryKey> historyKeysOf(const std::map<std::string, etcd::LockQueue>& locks);

} // namespace lockscope
