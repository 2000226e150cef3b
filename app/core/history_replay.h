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
// in a LockTable (so holders, recipes and anomalies follow the same rules as a live view; the
// keys' times and leases gone are the checkpoint's, then the events' and anomalies'). What a
// replay cannot know stays unknown: values, and leases' TTLs. Pure.
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
// at least those after the chosen checkpoint (and those before it, for a checkpoint recorded
// before its keys' times were kept). With `entrySeqs` (each entry's, and the checkpoints' seqs,
// as a store reads them) only the entries between the chosen checkpoint and the next are
// walked; without, every entry is, and an anomaly counts from the checkpoint's revision on (one
// recorded at it before the checkpoint agrees with the checkpoint's keys). Entries that begin at
// the checkpoint give a checkpoint recorded before its keys' times were kept lower bounds.
std::optional<ReplayedLocks> replayAt(const std::vector<HistoryCheckpoint>& checkpoints,
                                      const std::vector<HistoryEntry>& entries, int64_t revision,
                                      etcd::RecipeOverride recipe = etcd::RecipeOverride::Auto,
                                      const std::vector<int64_t>* entrySeqs = nullptr);

} // namespace lockscope
