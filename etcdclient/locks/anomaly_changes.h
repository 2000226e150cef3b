#pragma once

#include "etcdclient/locks/lock_name_ranges.h"
#include "etcdclient/locks/lock_types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etcd {

class LockTable;

// An anomaly that appeared on a key, or went from it (the key left, or was mended), between two
// reads of its lock: what a recording keeps of anomalies, so the morning after can tell when a
// key began to block a queue forever and when it stopped.
struct AnomalyChange {
    bool appeared = false;
    std::string lock;
    Anomaly anomaly;
    bool operator==(const AnomalyChange&) const = default;
};

// A reader's copy of a monitor's anomalies, as LockMonitor::updateAnomalies keeps it: the
// anomalies of every lock, at the monitor's change stamp and revision it was last brought to.
struct SeenAnomalies {
    uint64_t monitorId = 0; // 0: filled by no monitor yet
    uint64_t stamp = 0;
    int64_t revision = 0;
    AnomaliesByLock byLock;
};

// Sets `lock`'s anomalies in `seen` to `now` (none: the lock is left out), appending to
// `changes` those that went (in `seen`'s order), then those that appeared (in `now`'s). An
// anomaly whose detail changed went and appeared anew. Pure.
void updateLockAnomalies(AnomaliesByLock& seen, const std::string& lock, std::vector<Anomaly> now,
                         std::vector<AnomalyChange>& changes);

// updateLockAnomalies for every lock `seen` or `now` has: `seen` becomes `now`.
void updateAllAnomalies(AnomaliesByLock& seen, const AnomaliesByLock& now,
                        std::vector<AnomalyChange>& changes);

// Brings `seen` up to `table`'s anomalies by the locks `changed` names alone (a LockChangeLog's
// since `seen` was last brought up: those seen there and gone from the table go, the others are
// read), or by every lock when nothing tells which (nullopt). Asking after each batch of events
// then costs the locks they changed, not a million.
void updateChangedAnomalies(AnomaliesByLock& seen, const LockTable& table,
                            const std::optional<LockNameRanges>& changed,
                            std::vector<AnomalyChange>& changes);

} // namespace etcd
