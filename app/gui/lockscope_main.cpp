// lockscope: the LockScope desktop application.
#include "app/core/connection_options.h"
#include "app/core/termination_signals.h"
#include "app/gui/main_window.h"
#include "etcdclient/grpc_log.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QProcessEnvironment>
#include <QThreadPool>
#include <cstdio>

using namespace lockscope;

namespace {

int usageError(const QString& message) {
    std::fprintf(stderr, "lockscope: %s\nRun 'lockscope --help' for usage.\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("LockScope"); // where QSettings keeps window and prefixes
    QApplication::setApplicationName("LockScope");
    QApplication::setApplicationVersion(LOCKSCOPE_VERSION);
    QApplication::setDesktopFileName("lockscope");
    QApplication::setWindowIcon(QIcon(":/icons/lockscope.svg"));

    // --sandbox=N asks for an N-member sandbox; --sandbox alone for one member.
    QStringList arguments;
    int sandboxMembers = 1;
    for (const QString& argument : QApplication::arguments()) {
        if (argument.startsWith("--sandbox=")) {
            bool ok = false;
            sandboxMembers = argument.mid(10).toInt(&ok);
            if (!ok || sandboxMembers < 1 || sandboxMembers > 7)
                return usageError("--sandbox=N takes a member count from 1 to 7");
            arguments << "--sandbox";
        } else {
            arguments << argument;
        }
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Inspect etcd v3 locks. Connection flags and the ETCDCTL_* environment variables are "
        "those of etcdctl. Without endpoints, LockScope starts a sandbox etcd of its own.");
    parser.addHelpOption();
    parser.addVersionOption();
    ConnectionOptions::addFlags(parser);
    const QCommandLineOption sandboxOption(
        "sandbox", "Start a throwaway etcd and connect to it (the default when no endpoints are "
                   "given; stopped and deleted on exit). --sandbox=3 starts a 3-member cluster "
                   "whose members the Sandbox menu stops and restarts.");
    const QCommandLineOption etcdOption("etcd", "The etcd program for the sandbox.", "program",
                                        "etcd");
    const QCommandLineOption noLabOption(
        "no-lab", "On the sandbox, do not start the contention lab's demo workers.");
    const QCommandLineOption readOnlyOption("read-only", "Hide every action that writes.");
    const QCommandLineOption debugOption("debug", "Also print gRPC's own log lines to stderr.");
    parser.addOptions({sandboxOption, etcdOption, noLabOption, readOnlyOption, debugOption});
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    etcd::routeGrpcLog(parser.isSet(debugOption));
    if (parser.isSet("help"))
        parser.showHelp(0);
    if (parser.isSet("version"))
        parser.showVersion();
    if (parser.isSet(sandboxOption) && parser.isSet("endpoints"))
        return usageError("give either --sandbox or --endpoints, not both");
    QString problem;
    // No terminal prompt: the window asks for a missing password (and may find it in the
    // keyring), also when LockScope was started from a desktop menu.
    const auto connection =
        ConnectionOptions::read(parser, QProcessEnvironment::systemEnvironment(), nullptr, problem);
    if (!connection)
        return usageError(problem);

    TerminationSignals quitOnSignals;
    int exitCode = 0;
    {
        MainWindow window;
        window.show();
        window.setReadOnly(parser.isSet(readOnlyOption));
        if (parser.isSet(sandboxOption) || !connection->endpointsGiven) {
            if (!parser.isSet(noLabOption) && !parser.isSet(readOnlyOption))
                window.startLabDemoWhenConnected(); // a queue moving within seconds
            window.startSandbox(parser.value(etcdOption), sandboxMembers);
        } else
            window.openConnection(*connection);
        exitCode = QApplication::exec();
    }
    // A sandbox still starting when the window closed is stopped once its start-up check ends.
    QThreadPool::globalInstance()->waitForDone();
    return exitCode;
}
