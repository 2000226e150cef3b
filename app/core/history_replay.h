#pragma once

#include "app/core/lock_history.h"
#include "etcdclient/locks/lock_table.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lockscope {

// The locks of a recorded history as they stood at one revision: the keys of the last
// checkpoint at or before it, with the events recorded after that checkpoint up to it applied,
// in a LockTable (so holders, recipes and anomalies follow the same rules as a live view, and a
// lease recorded gone is gone). What a replay cannot know stays unknown: values, and leases'
// TTLs. Pure.
struct ReplayedLocks {
    int64_t revision = 0;           // asked for
    int64_t checkpointRevision = 0; // started from
    etcd::LockTable table;
    // The revision falls in a gap of the recording: what happened in it was not seen, so the
    // locks are as last seen before it.
    std::optional<HistoryGap> inGap;
    // The locks recorded as elections: a live view tells one by its values too (a candidate's
    // proposal), which a recording does not keep.
    std::set<std::string> elections;

    // As a snapshot of etcd at `revision` reads them (without TTLs or values).
    etcd::LockMonitorState state() const;
};

// Nothing when the recording began after `revision` (no checkpoint at or before it).
// `checkpoints` in recorded order; `entries`: the events, gaps and anomalies in recorded order,
// from the first (an anomaly is known only from its appearing, which may be long before).
std::optional<ReplayedLocks> replayAt(const std::vector<HistoryCheckpoint>& checkpoints,
                                      const std::vector<HistoryEntry>& entries, int64_t revision,
                                      etcd::RecipeOverride recipe = etcd::RecipeOverride::Auto);

} // namespace lockscope
