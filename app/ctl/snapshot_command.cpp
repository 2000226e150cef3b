#include "app/ctl/snapshot_command.h"

#include "app/core/key_text.h"
#include "app/core/lock_json.h"
#include "app/core/lock_queue_model.h"
#include "app/ctl/prefix_arguments.h"
#include "app/ctl/snapshot_read.h"
#include "app/ctl/text_table.h"

#include <QCoreApplication>
#include <cstdio>

namespace lockscope {

int runSnapshotCommand(const QStringList& arguments, const ConnectionOptions& connection) {
    int exitCode = ExitOk;
    const QCommandLineOption revisionOption(
        "revision",
        QCoreApplication::translate(
            "lockscopectl",
            "The locks as they were at this revision, while etcd keeps it (before its next "
            "compaction): who held, who waited, in what order. No lease TTLs: they are of now."),
        "N");
    const auto args = parsePrefixArguments(
        arguments,
        "lockscopectl [connection flags] snapshot PREFIX [--json] [--recipe NAME] [--revision N]",
        QCoreApplication::translate("lockscopectl",
                                    "Show every lock under PREFIX at one revision: holder, waiting "
                                    "queue, lease TTLs and anomalies."),
        JsonOutput::Offered, exitCode, {revisionOption});
    if (!args)
        return exitCode;
    int64_t revision = 0;
    if (const QString given = args->values.value("revision"); !given.isEmpty()) {
        bool number = false;
        revision = given.toLongLong(&number);
        if (!number || revision <= 0)
            return usageProblem(arguments.constFirst(),
                                QCoreApplication::translate("lockscopectl",
                                                            "--revision wants a revision (a whole "
                                                            "number above 0), not \"%1\"")
                                    .arg(given));
    }

    const auto state = readSnapshotUnder(*args, connection, exitCode, revision);
    if (!state)
        return exitCode;
    if (args->json) {
        std::printf("%s\n", lockStateJson(*state).c_str());
        return ExitOk;
    }
    // One table of every lock's queue in turn, without the Waiting column: one read cannot tell
    // how long a key has waited. One model shows each queue in turn, its rows copied as text: a
    // proxy stacking a model per lock found each row among them all (100k locks: hours).
    LockQueueModel queue;
    TextTable table(queue,
                    {LockQueueModel::Lock, LockQueueModel::Kind, LockQueueModel::Position,
                     LockQueueModel::Key, LockQueueModel::Lease, LockQueueModel::CreateRevision,
                     LockQueueModel::Ttl, LockQueueModel::GrantedTtl, LockQueueModel::Predecessor,
                     LockQueueModel::Value});
    for (const auto& [name, lock] : state->locks) {
        queue.setQueue(&lock, state->leases);
        table.addRows(queue);
    }
    const int lockCount = static_cast<int>(state->locks.size());
    std::fputs(
        qPrintable(QCoreApplication::translate("lockscopectl", "revision %1, %n lock(s) under %2\n",
                                               nullptr, lockCount)
                       .arg(state->revision)
                       .arg(QString::fromStdString(displayKey(args->prefix)))),
        stdout);
    if (!state->locks.empty())
        std::fputs(qPrintable(table.render()), stdout);
    for (const auto& [name, anomalies] : state->anomalies)
        for (const auto& anomaly : anomalies)
            std::fputs(
                qPrintable(QCoreApplication::translate("lockscopectl", "anomaly: %1: %2: %3\n")
                               .arg(QString::fromStdString(displayKey(anomaly.key)),
                                    etcd::anomalyKindName(anomaly.kind),
                                    QString::fromStdString(anomaly.detail))),
                stdout);
    return ExitOk;
}

} // namespace lockscope
