#include "app/core/lock_recorder.h"

#include "app/core/guarded_post.h"
#include "app/core/lock_history_store.h"

#include <utility>

namespace lockscope {

LockRecorder::LockRecorder(std::unique_ptr<LockHistoryStore> store, QObject* parent)
    : QObject(parent)
    , store_(std::move(store))
    , commitTimer_(this) { // a child: it moves with the recorder to the recorder's thread
    commitTimer_.setSingleShot(true);
    commitTimer_.setInterval(commitEvery);
    connect(&commitTimer_, &QTimer::timeout, this, &LockRecorder::commit);
}

LockRecorder::~LockRecorder() {
    writeHandedOver();
}

void LockRecorder::handOver(RecordingBatch batch) {
    // The wake-up starts the commit timer, whose commit writes what waits by then.
    if (inbox_.add(std::move(batch)))
        postToOwnThread(this, [](LockRecorder* recorder) { recorder->commitSoon(); });
}

void LockRecorder::writeHandedOver() {
    for (const auto& batch : inbox_.take()) {
        if (batch.gap)
            record(*batch.gap);
        if (!batch.events.empty())
            record(batch.events);
        if (batch.checkpoint)
            record(*batch.checkpoint);
        if (!batch.anomalies.empty())
            record(batch.anomalies);
    }
}

template <typename Entries> void LockRecorder::writeEach(const Entries& entries) {
    bool ok = true;
    for (const auto& entry : entries)
        ok = ok && store_->write(entry);
    wrote(ok);
}

void LockRecorder::record(const std::vector<etcd::LockEvent>& events) {
    writeEach(events);
}

void LockRecorder::record(const HistoryGap& gap) {
    wrote(store_->write(gap));
}

void LockRecorder::record(const std::vector<HistoryAnomaly>& anomalies) {
    writeEach(anomalies);
}

void LockRecorder::record(const LiveCheckpoint& checkpoint) {
    wrote(store_->write(checkpoint));
}

bool LockRecorder::commit() {
    writeHandedOver();
    commitTimer_.stop();
    const bool ok = store_->commit();
    if (!ok)
        tellFailure();
    return ok;
}

void LockRecorder::prune(std::chrono::system_clock::time_point keepSince, int64_t maxBytes) {
    writeHandedOver(); // the store commits it before it prunes
    commitTimer_.stop();
    if (!store_->prune(keepSince, maxBytes))
        tellFailure();
}

void LockRecorder::wrote(bool ok) {
    if (!ok)
        tellFailure();
    else
        commitSoon();
}

void LockRecorder::commitSoon() {
    // One commit per interval however many writes came: a batch, not a commit per event.
    if (!commitTimer_.isActive())
        commitTimer_.start();
}

void LockRecorder::tellFailure() {
    if (!std::exchange(failed_, true))
        emit failed(store_->error());
}

} // namespace lockscope
