#include "app/core/watch_recording.h"

#include "app/core/guarded_post.h"
#include "app/core/lock_history_store.h"
#include "app/core/lock_recorder.h"
#include "app/core/lock_recording_feed.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QTimer>
#include <mutex>

namespace lockscope {

// The feed of the run being recorded, which the monitor's listener calls on the client's thread:
// put in by the recording thread once the store is open, taken away by the GUI thread when the
// run stops or recording is turned off (the mutex orders both with the listener's calls).
struct RecordingFeedSlot {
    std::mutex mutex;
    uint64_t run = 0; // bumped by each change: a store opened for an older run is not fed
    std::unique_ptr<LockRecordingFeed> feed;
};

// The recording thread's side: the store of the run, its recorder, and retention.
class RecordingWorker : public QObject {
public:
    RecordingWorker(const QString& path, std::string cluster, bool afresh,
                    QPointer<WatchRecording> owner, std::shared_ptr<RecordingFeedSlot> slot)
        : path_(path)
        , cluster_(std::move(cluster))
        , afresh_(afresh)
        , owner_(std::move(owner))
        , slot_(std::move(slot))
        , pruneTimer_(new QTimer(this)) {
        pruneTimer_->setInterval(WatchRecording::PruneEvery);
        connect(pruneTimer_, &QTimer::timeout, this, &RecordingWorker::prune);
    }

    void open(const std::string& prefix, uint64_t run, const RecordingSettings& settings) {
        finish();
        settings_ = settings;
        if (std::exchange(afresh_, false))
            for (const char* suffix : {"", "-wal", "-shm"})
                QFile::remove(path_ + suffix);
        const QString folder = QFileInfo(path_).absolutePath();
        if (!QDir().mkpath(folder)) {
            fail(WatchRecording::tr("cannot create the folder %1").arg(folder));
            return;
        }
        QString problem;
        auto store = LockHistoryStore::openForWriting(path_, cluster_, prefix, problem);
        if (!store) {
            fail(problem);
            return;
        }
        recorder_ = std::make_unique<LockRecorder>(std::move(store));
        connect(recorder_.get(), &LockRecorder::failed, this, &RecordingWorker::fail);
        auto feed =
            std::make_unique<LockRecordingFeed>(recorder_.get(), WatchRecording::CheckpointEvery);
        {
            const std::lock_guard lock(slot_->mutex);
            if (slot_->run == run)
                slot_->feed = std::move(feed);
        }
        // After the feed is in: what it hands over meanwhile is written by prune's commit.
        prune();
        pruneTimer_->start();
    }

    // The feed is taken away first: the commit writes all it handed over.
    void finish() {
        pruneTimer_->stop();
        if (recorder_)
            recorder_->commit();
        recorder_.reset();
    }

    void apply(const RecordingSettings& settings) {
        settings_ = settings;
        prune();
    }

private:
    void prune() {
        if (recorder_)
            recorder_->prune(settings_.keepSince(std::chrono::system_clock::now()),
                             settings_.maxBytes());
    }

    void fail(const QString& message) {
        postGuarded(owner_, [message](WatchRecording* owner) { owner->sayFailure(message); });
    }

    const QString path_;
    const std::string cluster_;
    bool afresh_;
    const QPointer<WatchRecording> owner_;
    const std::shared_ptr<RecordingFeedSlot> slot_;
    QTimer* pruneTimer_;
    RecordingSettings settings_;
    std::unique_ptr<LockRecorder> recorder_;
};

WatchRecording::WatchRecording(const QString& path, std::string cluster, bool afresh,
                               QThread* thread, const RecordingSettings& settings)
    : path_(path)
    , settings_(settings)
    , slot_(std::make_shared<RecordingFeedSlot>())
    , worker_(new RecordingWorker(path, std::move(cluster), afresh, this, slot_)) {
    worker_->moveToThread(thread);
}

WatchRecording::~WatchRecording() {
    dropFeed();
    postToOwnThread(worker_, [](RecordingWorker* worker) {
        worker->finish();
        worker->deleteLater();
    });
}

void WatchRecording::apply(const RecordingSettings& settings) {
    const bool turned = settings.on != settings_.on;
    settings_ = settings;
    if (turned && running_)
        settings_.on ? begin() : end();
    else if (settings_.on)
        postToOwnThread(worker_, [settings](RecordingWorker* worker) { worker->apply(settings); });
}

void WatchRecording::runStarted(const std::string& prefix) {
    prefix_ = prefix;
    running_ = true;
    if (settings_.on)
        begin();
}

void WatchRecording::runStopped() {
    running_ = false;
    end();
}

void WatchRecording::begin() {
    const uint64_t run = dropFeed();
    postToOwnThread(worker_, [prefix = prefix_, run, settings = settings_](
                                 RecordingWorker* worker) { worker->open(prefix, run, settings); });
}

void WatchRecording::end() {
    dropFeed();
    postToOwnThread(worker_, [](RecordingWorker* worker) { worker->finish(); });
}

uint64_t WatchRecording::dropFeed() {
    // Outside the lock: no listener call waits on its destruction.
    std::unique_ptr<LockRecordingFeed> dropped;
    const std::lock_guard lock(slot_->mutex);
    dropped = std::move(slot_->feed);
    return ++slot_->run;
}

void WatchRecording::onEvents(const etcd::LockMonitor& monitor,
                              const std::vector<etcd::LockEvent>& events) {
    const std::lock_guard lock(slot_->mutex);
    if (slot_->feed)
        slot_->feed->onEvents(monitor, events);
}

void WatchRecording::sayFailure(const QString& message) {
    if (!std::exchange(failureSaid_, true))
        emit failed(message);
}

} // namespace lockscope
