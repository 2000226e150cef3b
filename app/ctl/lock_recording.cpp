#include "app/ctl/lock_recording.h"

#include "app/core/cluster_history_file.h"
#include "app/core/go_duration.h"
#include "app/core/guarded_post.h"
#include "app/core/lock_history_store.h"
#include "app/ctl/ctl_command.h"

#include <QCoreApplication>
#include <csignal>
#include <future>

namespace lockscope {

std::unique_ptr<LockRecording> LockRecording::open(const QString& location,
                                                   const ConnectionOptions& connection,
                                                   const std::string& prefix,
                                                   std::chrono::milliseconds checkpointEvery,
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
    return std::unique_ptr<LockRecording>(new LockRecording(std::move(recorder), checkpointEvery));
}

LockRecording::LockRecording(std::unique_ptr<LockRecorder> recorder,
                             std::chrono::milliseconds checkpointEvery)
    : recorder_(recorder.release())
    , feed_(recorder_, checkpointEvery) {
    recorder_->moveToThread(thread_.thread());
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
    // Queued behind what the feed posted before the monitor stopped, so recorded after it.
    bool committed = false;
    runOnRecorderThread(recorder_,
                        [&committed](LockRecorder* recorder) { committed = recorder->commit(); });
    return committed;
}

QCommandLineOption checkpointEveryOption() {
    return QCommandLineOption(
        "checkpoint-every",
        QCoreApplication::translate("lockscopectl",
                                    "How often to record the whole lock state while locks "
                                    "change, besides at the start and after every gap (a "
                                    "duration like 30s or 5m, at least 1s)."),
        "DURATION", "1m");
}

std::optional<std::chrono::milliseconds> parseCheckpointEvery(const QString& text,
                                                              QString& problem) {
    const auto every = parseGoDuration(text);
    if (every && *every >= std::chrono::seconds(1))
        return every;
    problem = QCoreApplication::translate("lockscopectl", "--checkpoint-every wants a duration "
                                                          "of at least 1s, like 30s or 5m, not "
                                                          "\"%1\"")
                  .arg(text);
    return std::nullopt;
}

} // namespace lockscope
