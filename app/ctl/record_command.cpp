#include "app/ctl/record_command.h"

#include "app/core/history_location.h"
#include "app/core/key_text.h"
#include "app/core/termination_signals.h"
#include "app/ctl/lock_recording.h"
#include "app/ctl/monitor_retry.h"
#include "app/ctl/prefix_arguments.h"
#include "etcdclient/locks/lock_monitor.h"

#include <QCommandLineOption>
#include <QCoreApplication>
#include <atomic>

namespace lockscope {

int runRecordCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    const QCommandLineOption toOption(
        "to",
        QCoreApplication::translate(
            "lockscopectl",
            "The SQLite file to record into (created when missing), or a PostgreSQL database "
            "that several recorders share, as postgresql://user[:password]@host[:port]/dbname "
            "(the password may come from PGPASSWORD instead). A recording of the same PREFIX "
            "and endpoints there is appended to, after a gap."),
        "FILE|URL");
    int exitCode = ExitOk;
    const auto args = parsePrefixArguments(
        arguments,
        "lockscopectl [connection flags] record PREFIX --to FILE|URL [--recipe NAME] "
        "[--checkpoint-every DURATION] [--keep DURATION] [--max-size MB]",
        QCoreApplication::translate(
            "lockscopectl",
            "Record every lock event under PREFIX (with its revision, time, key, lease and "
            "fencing token), checkpoints of the whole lock state, and every gap in the watch "
            "into FILE or a PostgreSQL database, until interrupted. Read it with lockscopectl "
            "history. Exit code 1 when it cannot be recorded into (damaged, of a newer "
            "LockScope, read-only, disk full, the server unreachable or refusing the password, "
            "Qt's PostgreSQL driver missing): what was recorded before stays."),
        JsonOutput::None, exitCode, QList<QCommandLineOption>{toOption} + recordingOptions());
    if (!args)
        return exitCode;
    const QString location = args->values["to"];
    if (location.isEmpty())
        return usageProblem(
            arguments.constFirst(),
            QCoreApplication::translate("lockscopectl",
                                        "--to FILE or --to URL is needed: where to record"));
    QString problem;
    const auto options = parseRecordingOptions(args->values, problem);
    if (!options || !HistoryLocation::parse(location, problem))
        return usageProblem(arguments.constFirst(), problem);

    auto recording = LockRecording::open(location, connection, args->prefix, *options,
                                         LockRecording::OnFailure::Exit);
    if (!recording)
        return ExitFailed;
    const auto client = connect(connection, exitCode);
    if (!client)
        return exitCode;
    TerminationSignals termination; // Ctrl-C ends the event loop, then the rest is committed
    auto wasLive = std::make_shared<std::atomic<bool>>(false);
    std::weak_ptr<etcd::LockMonitor> weak;
    auto onEvents = [&, wasLive](const std::vector<etcd::LockEvent>& events) {
        const auto self = weak.lock();
        if (!self)
            return;
        recording->feed().onEvents(*self, events);
        const auto [live, status] = self->liveness();
        if (live != wasLive->exchange(live))
            say(live
                    ? QCoreApplication::translate("lockscopectl",
                                                  "recording the locks under %1 into %2")
                          .arg(QString::fromStdString(displayKey(args->prefix)), recording->shown())
                    : QCoreApplication::translate("lockscopectl", "not watching: %1")
                          .arg(QString::fromStdString(status)));
    };
    auto monitor = etcd::LockMonitor::create(
        *client, {.prefix = args->prefix, .recipe = args->recipe}, onEvents,
        [](const etcd::LockMonitor::Retry& retry) { reportMonitorRetry(retry); });
    weak = monitor;
    monitor->start();
    exitCode = QCoreApplication::exec();
    monitor->stop();
    return recording->finish() ? exitCode : ExitFailed;
}

} // namespace lockscope
