#pragma once

#include "app/core/lock_history.h"
#include "etcdclient/client.h"
#include "etcdclient/locks/lock_types.h"

#include <functional>
#include <string>
#include <vector>

namespace lockscope {

// etcd's own history of the locks under a prefix, while it keeps it (until its next compaction),
// as a recording holds one: the keys at `from` (a Range at that revision) as a checkpoint, and
// every change after it up to the revision of the moment asked (a Watch from the next revision)
// as the lock events a live view would have told. etcd keeps no times: each entry's time is its
// revision in seconds after the epoch, which only paces a replay (timesKnown is false).
struct EtcdHistory {
    std::vector<HistoryCheckpoint> checkpoints;
    std::vector<HistoryEntry> entries;
    int64_t from = 0, until = 0;
};

// Reads it on the client's thread; `done` runs there. A revision etcd compacted away gives an
// error naming the oldest one it keeps.
void readEtcdHistory(etcd::Client& client, const std::string& prefix, int64_t from,
                     etcd::RecipeOverride recipe,
                     std::function<void(etcd::Result<EtcdHistory>)> done);

// Whether `error` is etcd's refusal of a read of a revision it compacted away (mvcc's
// ErrCompacted, told by its words on a Range, by its code on a Watch).
bool compactedAway(const etcd::Error& error);

// The oldest revision etcd still keeps (1 when it never compacted) and the newest, on the
// client's thread.
struct KeptRevisions {
    int64_t oldest = 1, newest = 0;
};
void readKeptRevisions(etcd::Client& client, std::function<void(etcd::Result<KeptRevisions>)> done);

} // namespace lockscope
