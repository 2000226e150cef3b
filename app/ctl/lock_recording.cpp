#include "app/ctl/lock_recording.h"

#include "app/core/cluster_history_file.h"
#include "app/core/go_duration.h"
#include "app/core/guarded_post.h"
#include "app/core/lock_history_store.h"
#include "app/ctl/ctl_command.h"

#include <QCoreApplication>
#include <QTimer>
#include <algorithm>
#include <csignal>
#include <future>
#include <limits>

namespace lockscope {

std::unique_ptr<LockRecording> LockRecording::open(const QString& location,
                                                   const ConnectionOptions& connection,
                                                   const std::string& prefix,
                                                   const RecordingOptions& options,
                                                   OnFailure onFailure) {
    // A file size limit (ulimit -f) must fail the write with EFBIG, which the store reports,
    // rather than kill lockscopectl before it says why.
    std::signal(SIGXFSZ, SIG_IGN);
    QString problem;
    auto store = LockHistoryStore::openForWriting(
        location, clusterName(connection.client.endpoints), prefix, problem);
    if (!store) {
        say(problem);
        return nullptr;
    }
    auto recorder = std::make_unique<LockRecorder>(std::move(store));
    // Told on the recorder's thread, said and acted on on the application's (posted so that
    // ThreadSanitizer sees the handoff).
    QObject::connect(recorder.get(), &LockRecorder::failed, [onFailure](const QString& message) {
        postGuarded(QPointer<QCoreApplication>(QCoreApplication::instance()),
                    [onFailure, message](QCoreApplication*) {
                        say(message);
                        if (onFailure == OnFailure::Exit)
                            QCoreApplication::exit(ExitFailed);
                    });
    });
    return std::unique_ptr<LockRecording>(new LockRecording(std::move(recorder), options));
}

LockRecording::LockRecording(std::unique_ptr<LockRecorder> recorder,
                             const RecordingOptions& options)
    : recorder_(recorder.release())
    , feed_(recorder_, options.checkpointEvery) {
    recorder_->moveToThread(thread_.thread());
    if (!options.keep && !options.maxBytes)
        return;
    // On the recorder's thread, from its start and then every so often; the timer goes with it.
    postToOwnThread(recorder_, [options](LockRecorder* recorder) {
        const auto prune = [recorder, options] {
            recorder->prune(options.keep ? std::chrono::system_clock::now() - *options.keep
                                         : std::chrono::system_clock::time_point::min(),
                            options.maxBytes.value_or(std::numeric_limits<int64_t>::max()));
        };
        prune();
        auto* timer = new QTimer(recorder);
        QObject::connect(timer, &QTimer::timeout, recorder, prune);
        timer->start(options.pruneEvery());
    });
}

std::chrono::milliseconds RecordingOptions::pruneEvery() const {
    if (!keep)
        return std::chrono::minutes(1);
    return std::clamp<std::chrono::milliseconds>(*keep / 4, std::chrono::seconds(1),
                                                 std::chrono::minutes(1));
}

namespace {

// Runs `task` on the recorder's thread, after what was posted to it, and waits for it. Posted
// as the feed posts (postToOwnThread), so that ThreadSanitizer sees the handoff.
template <class Task> void runOnRecorderThread(LockRecorder* recorder, Task task) {
    std::promise<void> done;
    postToOwnThread(recorder, [&](LockRecorder* target) {
        task(target);
        done.set_value();
    });
    done.get_future().wait();
}

} // namespace

LockRecording::~LockRecording() {
    runOnRecorderThread(recorder_, [](LockRecorder* recorder) { delete recorder; });
}

const QString& LockRecording::shown() const {
    return recorder_->store().location().shown; // set when opened, never changed
}

bool LockRecording::finish() {
    // After the monitor stopped: the commit writes all the feed handed over.
    bool committed = false;
    runOnRecorderThread(recorder_,
                        [&committed](LockRecorder* recorder) { committed = recorder->commit(); });
    return committed;
}

QList<QCommandLineOption> recordingOptions() {
    return {
        QCommandLineOption(
            "checkpoint-every",
            QCoreApplication::translate("lockscopectl",
                                        "How often to record the whole lock state while locks "
                                        "change, besides at the start and after every gap (a "
                                        "duration like 30s or 5m, at least 1s)."),
            "DURATION", "1m"),
        QCommandLineOption(
            "keep",
            QCoreApplication::translate(
                "lockscopectl",
                "Delete what was recorded longer ago than this (a duration like 168h; at least "
                "1s), back to a checkpoint so what is kept still replays. Default: keep all."),
            "DURATION"),
        QCommandLineOption(
            "max-size",
            QCoreApplication::translate(
                "lockscopectl",
                "Delete the oldest of a file's recording while it takes more than this many "
                "megabytes, back to a checkpoint (SQLite only). Default: no limit."),
            "MB"),
    };
}

namespace {

std::optional<std::chrono::milliseconds> parseDuration(const QString& name, const QString& text,
                                                       QString& problem) {
    const auto duration = parseGoDuration(text);
    if (duration && *duration >= std::chrono::seconds(1))
        return duration;
    problem = QCoreApplication::translate("lockscopectl", "--%1 wants a duration of at least 1s, "
                                                          "like 30s, 5m or 168h, not \"%2\"")
                  .arg(name, text);
    return std::nullopt;
}

} // namespace

std::optional<RecordingOptions> parseRecordingOptions(const QMap<QString, QString>& values,
                                                      QString& problem) {
    RecordingOptions options;
    const auto every = parseDuration("checkpoint-every", values["checkpoint-every"], problem);
    if (!every)
        return std::nullopt;
    options.checkpointEvery = *every;
    if (const QString keep = values["keep"]; !keep.isEmpty()) {
        options.keep = parseDuration("keep", keep, problem);
        if (!options.keep)
            return std::nullopt;
    }
    if (const QString size = values["max-size"]; !size.isEmpty()) {
        bool ok = false;
        const qlonglong megabytes = size.toLongLong(&ok);
        if (!ok || megabytes < 1 || megabytes > 1024 * 1024 * 1024) {
            problem = QCoreApplication::translate(
                          "lockscopectl", "--max-size wants a whole number of megabytes of at "
                                          "least 1, not \"%1\"")
                          .arg(size);
            return std::nullopt;
        }
        options.maxBytes = megabytes * 1024 * 1024;
    }
    return options;
}

} // namespace lockscope
