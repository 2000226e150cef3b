#pragma once

#include "app/core/connection_options.h"
#include "app/core/lock_recorder.h"
#include "app/core/lock_recording_feed.h"
#include "app/core/recording_thread.h"

#include <QCommandLineOption>
#include <QList>
#include <QMap>
#include <QString>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace lockscope {

// How a command records: a checkpoint every so often, and what it keeps (the desktop's
// retention, for a recorder that runs all night): entries older than `keep`, and the oldest
// while a file takes more than `maxBytes`, go, always back to a checkpoint (see
// LockHistoryStore::prune). Neither set: everything is kept.
struct RecordingOptions {
    std::chrono::milliseconds checkpointEvery{60000};
    std::optional<std::chrono::milliseconds> keep;
    std::optional<int64_t> maxBytes;
    // How often what is kept is enforced: a quarter of `keep`, from a second to a minute.
    std::chrono::milliseconds pruneEvery() const;
};

// A recording of a LockMonitor into a file or a PostgreSQL database, for `record` and
// `exporter --record`: the store opened for `prefix` of the cluster `connection` names, its
// recorder on a thread of its own, and the feed for the monitor's listener. The thread is for an
// exporter of several clusters recording into one SQLite file: each recorder holds its batch's
// transaction until its next commit, so the others' wait on theirs (busy) must not hold up the
// thread that commits it. A write that fails says why (what was committed before
// stays) and, for `record`, ends the event loop with ExitFailed; the exporter serves on.
class LockRecording {
public:
    enum class OnFailure { Exit, GoOn };
    // Null when `location` cannot be recorded into, once said why.
    static std::unique_ptr<LockRecording>
    open(const QString& location, const ConnectionOptions& connection, const std::string& prefix,
         const RecordingOptions& options, OnFailure onFailure);

    // Where it records, as messages name it (no password).
    const QString& shown() const;

    // The monitor's listener calls this on its thread.
    LockRecordingFeed& feed() { return feed_; }
    // Once the monitor is stopped: commits the rest (waiting for it); false when that failed
    // (said).
    bool finish();
    ~LockRecording(); // the recorder ends on its thread, after what was posted to it

private:
    LockRecording(std::unique_ptr<LockRecorder> recorder, const RecordingOptions& options);

    RecordingThread thread_;
    LockRecorder* recorder_; // lives on thread_, deleted there
    LockRecordingFeed feed_;
};

// --checkpoint-every (1m by default), --keep and --max-size, for each command that records.
QList<QCommandLineOption> recordingOptions();
// Their values (PrefixArguments::values): durations are Go's (like etcdctl's) of at least a
// second, sizes whole megabytes; nothing, with the problem in `problem`, when one is not.
std::optional<RecordingOptions> parseRecordingOptions(const QMap<QString, QString>& values,
                                                      QString& problem);

} // namespace lockscope
