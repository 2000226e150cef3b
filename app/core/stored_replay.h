#pragma once

#include "app/core/history_replay.h"

#include <chrono>
#include <optional>

namespace lockscope {

class LockHistoryStore;

// The locks of a recording at one revision or time, read from its store by the one
// checkpoint's interval that holds it: the checkpoints' places first (no keys), then that
// checkpoint's keys and the entries up to the next one, by the store's index. A day of a busy
// prefix is tens of millions of entries; a moment of it costs one interval.
struct StoredReplay {
    bool read = false; // false: the store could not be read (its error() says why)
    // The recording's first checkpoint (without keys), to say when it began; none when it holds
    // no state yet.
    std::optional<HistoryCheckpoint> first;
    std::optional<ReplayedLocks> locks; // none before the first checkpoint
    // When the recording reached them: the time asked for, or the last entry's at or before
    // the revision asked for (the checkpoint's when none is).
    std::chrono::system_clock::time_point at;
};

StoredReplay replayStoredAt(LockHistoryStore& store, int64_t revision);
// At the revision the recording had reached at `time`: its last entry's then.
StoredReplay replayStoredAt(LockHistoryStore& store, std::chrono::system_clock::time_point time);

} // namespace lockscope
