#pragma once

#include "app/core/lock_history.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lockscope {

// What a lock event does to its lock's current hold, as a timeline of holders draws it: an
// Acquired begins one (ending the one before), a holder leaving in any way ends it; a waiter
// leaving, a proclaim or a loss our own session learnt of changes no hold.
enum class HoldChange { Begins, Ends, None };
HoldChange holdChangeOf(const etcd::LockEvent& event);

// One holder's hold of a lock, from a recording.
struct HoldSpan {
    std::string lock;
    std::string key;
    int64_t lease = 0;
    int64_t fencingToken = 0;                        // the key's create revision
    etcd::QueueKind recipe = etcd::QueueKind::Mutex; // the lock's, which names how it ended
    std::chrono::system_clock::time_point start;
    // None: still held where the recording (or the part of it read) ends.
    std::optional<std::chrono::system_clock::time_point> end;
    // The event that ended it; none when the next hold began without one (its end fell in a
    // gap), or while it is held.
    std::optional<etcd::LockEventKind> endedBy;
    // Held before the recording saw it begin (at its first checkpoint, or found after a gap):
    // `start` is when it was first seen, the hold began earlier.
    bool startUnknown = false;
};

struct HoldSpans {
    std::vector<HoldSpan> spans; // in the order they began
    // Locks past the limit of lanes (by first hold), and holds past the limit of spans: not
    // in `spans`, counted so the timeline can say so.
    std::size_t locksLeftOut = 0;
    std::size_t spansLeftOut = 0;
    // When the first hold left out began: nothing is drawn from there on.
    std::optional<std::chrono::system_clock::time_point> leftOutFrom;
};

// The holds of a recording read from its first checkpoint (`start`, the replay's first moment;
// null when it has none) through `entries`: the start's holders, then each event's
// holdChangeOf. Holders unchanged across a gap hold on; those that changed in it come as the
// recovered events recorded after it. At most `maxLocks` locks, at most `maxSpans` spans. Pure.
HoldSpans holdSpansOf(const HistoryCheckpoint* start, const std::vector<HistoryEntry>& entries,
                      std::size_t maxLocks, std::size_t maxSpans);

} // namespace lockscope
