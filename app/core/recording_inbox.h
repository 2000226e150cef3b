#pragma once

#include "app/core/lock_history.h"

#include <mutex>
#include <optional>
#include <vector>

namespace lockscope {

// What one call of a recording's feed hands on, in the order it is written: the gap first, then
// the events, the checkpoint of the state after them, and the anomalies that appeared or went.
struct RecordingBatch {
    std::optional<HistoryGap> gap;
    std::vector<etcd::LockEvent> events;
    std::optional<LiveCheckpoint> checkpoint;
    std::vector<HistoryAnomaly> anomalies;
};

// What a feed, on the client's thread, leaves for the recorder's next commit. add() asks for a
// wake-up only for the first batch since the last take(): a recorder woken for each watch
// response spent more of its CPU switching threads than writing.
class RecordingInbox {
public:
    // True: the first batch waiting, the recorder is to be woken.
    bool add(RecordingBatch batch);
    // Every batch waiting, oldest first; the inbox is empty after.
    std::vector<RecordingBatch> take();

private:
    std::mutex mutex_;
    std::vector<RecordingBatch> batches_;
};

} // namespace lockscope
