#pragma once

#include "etcdclient/locks/lock_monitor.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace lockscope {

class LockRecorder;

// Turns a LockMonitor's listener calls, on the client's thread, into what a recording holds
// and hands it to a LockRecorder, to be written on the recorder's thread (nothing here waits on
// the disk): each batch of lock events; a checkpoint of the whole state once the first listing
// is in and then at most every `checkpointEvery` while anything happens; after every outage a
// gap (the monitor's Outage: from the last word heard to the re-read), then the events the
// re-read recovered, then a checkpoint of the state re-read; after each, the anomalies that
// appeared or went (all there are, after the first checkpoint). A recording that goes on in a
// file recorded before begins with a gap since that file's last entry. The recorder must outlive
// the monitor's run (stop the monitor first).
class LockRecordingFeed {
public:
    LockRecordingFeed(LockRecorder* recorder, std::chrono::milliseconds checkpointEvery);

    // The monitor's listener, on its thread.
    void onEvents(const etcd::LockMonitor& monitor, const std::vector<etcd::LockEvent>& events);

private:
    LockRecorder* const recorder_;
    const std::chrono::milliseconds checkpointEvery_;
    // The time of the last entry in the file before this recording: a gap since then.
    const std::optional<std::chrono::system_clock::time_point> resumedAfter_;
    bool started_ = false;
    uint64_t outagesRecorded_ = 0; // the number of the last outage recorded as a gap
    std::chrono::steady_clock::time_point checkpointedAt_{};
    etcd::SeenAnomalies anomalies_; // as recorded so far
};

} // namespace lockscope
