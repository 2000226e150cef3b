// lockscopectl: LockScope without windows. `lockscopectl [connection flags] <command> ...`
#include "app/core/connection_options.h"
#include "app/core/key_text.h"
#include "app/core/lossless_arguments.h"
#include "app/core/terminal_password_prompt.h"
#include "app/core/ui_language.h"
#include "app/ctl/blockers_command.h"
#include "app/ctl/ctl_command.h"
#include "app/ctl/elect_command.h"
#include "app/ctl/exporter_command.h"
#include "app/ctl/history_command.h"
#include "app/ctl/lab_command.h"
#include "app/ctl/lock_command.h"
#include "app/ctl/profile_runs.h"
#include "app/ctl/record_command.h"
#include "app/ctl/snapshot_command.h"
#include "app/ctl/status_command.h"
#include "app/ctl/watch_command.h"
#include "etcdclient/grpc_log.h"
#include "process/huge_page_heap.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QProcessEnvironment>
#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

using namespace lockscope;

namespace {

// The summaries are translated where the list is printed (commandList).
constexpr std::array commands = {
    CtlCommand{
        "status",
        QT_TRANSLATE_NOOP("lockscopectl", "Show each endpoint's status (add --json for JSON)."),
        CtlCommand::Heap::Small, runStatusCommand},
    CtlCommand{"lock",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Take a lock like etcdctl lock: NAME [--read|--write] [--ttl N] "
                                 "[--grace DURATION] [--try] [--server-lock] [--force] "
                                 "[--no-retry] [-- COMMAND ARGS...]; --read or --write: a reader "
                                 "or writer of etcd's RWMutex recipe."),
               CtlCommand::Heap::Small, runLockCommand},
    CtlCommand{"elect",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Campaign like etcdctl elect: NAME PROPOSAL (stdin lines "
                                 "proclaim), or -l NAME to print each leader."),
               CtlCommand::Heap::Small, runElectCommand},
    CtlCommand{"snapshot",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Show every lock under PREFIX: holder, queue, TTLs (--json)."),
               CtlCommand::Heap::Large, runSnapshotCommand},
    CtlCommand{"blockers",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Show who waits for whom under PREFIX: root blockers and "
                                 "deadlocks (--json; exit code 5 on a deadlock)."),
               CtlCommand::Heap::Large, runBlockersCommand},
    CtlCommand{"watch",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Print lock events under PREFIX as they happen (--json)."),
               CtlCommand::Heap::Large, runWatchCommand},
    CtlCommand{"record",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Record lock events under PREFIX into an SQLite file: --to FILE "
                                 "[--checkpoint-every DURATION] [--keep DURATION] "
                                 "[--max-size MB]."),
               CtlCommand::Heap::Large, runRecordCommand},
    CtlCommand{"history",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "List what a recording holds: FILE [--lock NAME] [--since T] "
                                 "[--until T] [--report] (--json)."),
               CtlCommand::Heap::Large, runHistoryCommand},
    CtlCommand{"lab",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Run the contention lab headless and report split brains "
                                 "(--json)."),
               CtlCommand::Heap::Small, runLabCommand},
    CtlCommand{"exporter",
               QT_TRANSLATE_NOOP("lockscopectl",
                                 "Serve the locks under PREFIX as Prometheus metrics: [--listen "
                                 "HOST:PORT] [--max-locks N]; several clusters with repeated "
                                 "--profile."),
               CtlCommand::Heap::Large, runExporterCommand, runExporterOnClusters},
};

QString commandList() {
    QString text = QCoreApplication::translate("lockscopectl", "\nCommands:\n");
    for (const CtlCommand& command : commands)
        text += QStringLiteral("  %1  %2\n")
                    .arg(QString(command.name).leftJustified(10),
                         QCoreApplication::translate("lockscopectl", command.summary));
    return text;
}

int usageError(const QString& message) {
    say(QCoreApplication::translate("lockscopectl", "%1\nRun 'lockscopectl --help' for usage.")
            .arg(message));
    return ExitUsage;
}

} // namespace

int main(int argc, char* argv[]) {
    // As main got it: Qt takes its own arguments out of argv.
    std::vector<char*> originalArgv(argv, argv + argc + 1);
    // Lock names and prefixes are bytes: read them before Qt decodes (and mangles) them.
    const QStringList allArguments = losslessArguments(argc, argv);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("lockscopectl");
    QCoreApplication::setApplicationVersion(LOCKSCOPE_VERSION);
    installTranslations(app, chosenUiLanguage({})); // the system's language

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "lockscopectl", "Inspect etcd v3 locks from the command line. Connection flags and the "
                        "ETCDCTL_* environment variables are those of etcdctl; a flag wins over "
                        "its variable."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    ConnectionOptions::addFlags(parser);
    const QCommandLineOption debugOption(
        "debug",
        QCoreApplication::translate("lockscopectl", "Also print gRPC's own log lines to stderr."));
    parser.addOption(debugOption);
    parser.addOption(profileOption());
    parser.addPositionalArgument(
        "command", QCoreApplication::translate("lockscopectl", "The command to run; see below."),
        QCoreApplication::translate("lockscopectl", "<command> [args]"));
    // Everything after the command name belongs to the command.
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);

    if (!parser.parse(allArguments))
        return usageError(parser.errorText());
    etcd::routeGrpcLog(parser.isSet(debugOption));
    if (parser.isSet(helpOption)) {
        // Qt's usage line names the binary's full path and omits the command's place.
        const QString usage = QCoreApplication::translate(
            "lockscopectl", "Usage: lockscopectl [connection flags] <command> [args]\n");
        std::fputs(qPrintable(usage + parser.helpText().section('\n', 1) + commandList()), stdout);
        return ExitOk;
    }
    if (parser.isSet(versionOption)) {
        std::printf("lockscopectl %s\n", LOCKSCOPE_VERSION);
        return ExitOk;
    }
    const QStringList arguments = parser.positionalArguments();
    if (arguments.isEmpty())
        return usageError(QCoreApplication::translate("lockscopectl", "no command given"));
    const auto command = std::find_if(commands.begin(), commands.end(), [&](const CtlCommand& c) {
        return arguments.first() == QLatin1String(c.name);
    });
    if (command == commands.end())
        return usageError(QCoreApplication::translate("lockscopectl", "unknown command \"%1\"")
                              .arg(displayKeyText(argumentBytes(arguments.first()))));

    // Before a password is asked for: the program run again would ask again.
    if (command->heap == CtlCommand::Heap::Large)
        lockscope::process::restartWithHugePageHeap(originalArgv.data());
    if (parser.isSet("profile"))
        return runOnProfiles(*command, arguments, parser);
    QString problem;
    const auto connection = ConnectionOptions::read(
        parser, QProcessEnvironment::systemEnvironment(), askPasswordOnTerminal, problem);
    if (!connection)
        return usageError(problem);
    return command->run(arguments, *connection);
}
