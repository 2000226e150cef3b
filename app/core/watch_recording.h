#pragma once

#include "app/core/monitor_tap.h"
#include "app/core/recording_settings.h"

#include <QObject>
#include <QString>
#include <chrono>
#include <memory>
#include <string>

class QThread;

namespace lockscope {

class RecordingWorker;
struct RecordingFeedSlot;

// The desktop's recording of what a LockWatch watches, as `lockscopectl record` records: each
// run of the monitor (a prefix, until the prefix or the connection changes) is a source of the
// cluster's file (LockHistoryStore), written by a LockRecorder on the recording thread, fed by a
// LockRecordingFeed from the monitor's listener. The GUI thread only posts: the store is opened,
// written, pruned and closed on the recording thread. A run's recording ends once its monitor
// has stopped (runStopped), so nothing is posted to a recorder that is gone. Retention runs when
// a store opens, when the settings change and every PruneEvery.
class WatchRecording : public QObject, public MonitorTap {
    Q_OBJECT
public:
    static constexpr std::chrono::minutes CheckpointEvery{1};
    static constexpr std::chrono::hours PruneEvery{1};

    // Records into the file at `path` (made, with its folder, when missing) what is watched of
    // the cluster named `cluster` (clusterName()), on `thread`, as `settings` say. `afresh`: what
    // the file holds goes first (a new sandbox: another cluster under the same name).
    WatchRecording(const QString& path, std::string cluster, bool afresh, QThread* thread,
                   const RecordingSettings& settings);
    // The last commit is queued on the recording thread, not waited for.
    ~WatchRecording() override;

    const QString& path() const { return path_; }
    // Turned on or off, from now (a run going on is recorded from its next listener call);
    // new limits prune at once.
    void apply(const RecordingSettings& settings);
    const RecordingSettings& settings() const { return settings_; }

    void runStarted(const std::string& prefix) override;
    void runStopped() override;
    void onEvents(const etcd::LockMonitor& monitor,
                  const std::vector<etcd::LockEvent>& events) override;

signals:
    // The first failure (a folder that cannot be written, a full disk): nothing more is
    // recorded of the run, and the next failure of this recording is not told again.
    void failed(const QString& message);

private:
    friend class RecordingWorker;
    void begin(); // the run going on, into its source
    void end();   // what is recorded of the run, committed and closed
    // Takes the feed away from the listener; the number of the run to record from now.
    uint64_t dropFeed();
    void sayFailure(const QString& message);

    const QString path_;
    RecordingSettings settings_;
    std::string prefix_;
    bool running_ = false;
    bool failureSaid_ = false;
    std::shared_ptr<RecordingFeedSlot> slot_;
    RecordingWorker* worker_; // on the recording thread; deleted there after its last call
};

} // namespace lockscope
