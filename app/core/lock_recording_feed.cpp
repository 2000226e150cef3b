#include "app/core/lock_recording_feed.h"

#include "app/core/lock_history_store.h"
#include "app/core/lock_recorder.h"

namespace lockscope {

LockRecordingFeed::LockRecordingFeed(LockRecorder* recorder,
                                     std::chrono::milliseconds checkpointEvery)
    : recorder_(recorder)
    , checkpointEvery_(checkpointEvery)
    , resumedAfter_(recorder->store().lastWrittenAt()) {}

void LockRecordingFeed::onEvents(const etcd::LockMonitor& monitor,
                                 const std::vector<etcd::LockEvent>& events) {
    const auto now = std::chrono::system_clock::now();
    const auto steadyNow = std::chrono::steady_clock::now();
    RecordingBatch batch;
    const char* checkpoint = nullptr;
    // Only a live view is a state to record; events before it are none (the first listing
    // reports none, and a re-read's recovered events come once it is live again).
    const bool live = monitor.liveness().first;
    if (live) {
        const auto outage = monitor.outage();
        if (!started_) {
            started_ = true;
            outagesRecorded_ = outage ? outage->number : 0;
            checkpoint = "start";
            if (resumedAfter_)
                batch.gap =
                    HistoryGap{*resumedAfter_, now, 0, "not recording (the recorder stopped)"};
        } else if (outage && outage->until && outage->number != outagesRecorded_) {
            outagesRecorded_ = outage->number;
            batch.gap = HistoryGap{outage->since, *outage->until, outage->revision, outage->reason};
            checkpoint = "resync";
        } else if (steadyNow - checkpointedAt_ >= checkpointEvery_) {
            checkpoint = "periodic";
        }
    }
    if (live) {
        std::vector<etcd::AnomalyChange> changes;
        monitor.updateAnomalies(anomalies_, changes);
        batch.anomalies.reserve(changes.size());
        for (auto& change : changes)
            batch.anomalies.push_back({std::move(change), anomalies_.revision, now});
    }
    if (checkpoint) {
        // On the client's thread, between its callbacks: the state holds exactly the events
        // handed on so far, and the anomalies just brought up to date. The queues are shared,
        // copied under the monitor's lock: the recorder reads them as they are now.
        monitor.readLocks([&](int64_t revision, const etcd::LockQueues& locks) {
            batch.checkpoint =
                LiveCheckpoint{revision, now, checkpoint, sharedQueuesOf(locks), anomalies_.byLock};
        });
        checkpointedAt_ = steadyNow;
        if (batch.gap && batch.gap->revision == 0)
            batch.gap->revision = batch.checkpoint->revision;
    }
    if (!batch.gap && !batch.checkpoint && events.empty() && batch.anomalies.empty())
        return;
    batch.events = events;
    recorder_->handOver(std::move(batch));
}

} // namespace lockscope
