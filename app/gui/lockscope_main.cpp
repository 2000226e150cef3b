// lockscope: the LockScope desktop application.
#include "app/core/connection_options.h"
#include "app/core/lossless_arguments.h"
#include "app/core/termination_signals.h"
#include "app/core/ui_language.h"
#include "app/gui/history_replay_window.h"
#include "app/gui/lockscope_command_line.h"
#include "app/gui/main_window.h"
#include "etcdclient/grpc_log.h"
#include "process/huge_page_heap.h"

#include <QApplication>
#include <QIcon>
#include <QProcessEnvironment>
#include <QSettings>
#include <QThreadPool>
#include <cstdio>

using namespace lockscope;

namespace {

int usageError(const QString& message) {
    std::fputs(
        qPrintable(QCoreApplication::translate("lockscope", "lockscope: %1\n"
                                                            "Run 'lockscope --help' for usage.\n")
                       .arg(message)),
        stderr);
    return 2;
}

// Whether a QApplication can start: without a platform to draw on it aborts, so say so first.
bool platformAvailable(const QStringList& arguments) {
    return !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") || arguments.contains("-platform") ||
           !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

// The language chosen in View ▸ Language, else the system's.
void speakChosenLanguage(QCoreApplication& app) {
    installTranslations(app, chosenUiLanguage(QSettings().value(uiLanguageSettingKey).toString()));
}

} // namespace

int main(int argc, char* argv[]) {
    lockscope::process::restartWithHugePageHeap(argv);  // first: nothing done yet is lost
    QCoreApplication::setOrganizationName("LockScope"); // where QSettings keeps window and prefixes
    QCoreApplication::setApplicationName("LockScope");
    QCoreApplication::setApplicationVersion(LOCKSCOPE_VERSION);

    // --help and --version print text: answered before QApplication, which aborts without a
    // display. Arguments this parse does not know (Qt's own -platform ...) wait for the second,
    // unless there is no display: then no Qt option can help, and the usage error is the answer.
    // The options' descriptions are translated when the parser is built: the text printed
    // comes from a second parser, built once the language is installed.
    const QStringList arguments = losslessArguments(argc, argv);
    if (LockscopeCommandLine early;
        (early.parse(arguments) && early.asksForText()) || !platformAvailable(arguments)) {
        QCoreApplication textOnly(argc, argv);
        speakChosenLanguage(textOnly);
        LockscopeCommandLine translated;
        if (!translated.parse(arguments))
            return usageError(translated.errorText());
        if (translated.asksForText())
            translated.printText();
        std::fputs(qPrintable(QCoreApplication::translate(
                       "lockscope",
                       "lockscope: no display to open the window on (DISPLAY and WAYLAND_DISPLAY "
                       "are unset).\nRun it in a desktop session, or over ssh -X; lockscopectl "
                       "answers the same questions in a terminal.\n")),
                   stderr);
        return 1;
    }

    QApplication app(argc, argv);
    speakChosenLanguage(app);
    QApplication::setDesktopFileName("lockscope");
    QApplication::setWindowIcon(QIcon(":/icons/lockscope.svg"));

    LockscopeCommandLine commandLine;
    if (!commandLine.parse(QApplication::arguments()))
        return usageError(commandLine.errorText());
    etcd::routeGrpcLog(commandLine.debug());
    if (commandLine.asksForText())
        commandLine.printText();
    QString problem;
    const auto connection =
        commandLine.connection(QProcessEnvironment::systemEnvironment(), problem);
    if (!connection)
        return usageError(problem);

    TerminationSignals quitOnSignals;
    if (const auto history = commandLine.history()) {
        // Deletes itself when closed.
        auto* replay = new HistoryReplayWindow(*history, nullptr, {}, commandLine.historySpan());
        replay->show();
        return QApplication::exec();
    }
    int exitCode = 0;
    {
        MainWindow window;
        window.show();
        window.setReadOnly(commandLine.readOnly());
        const auto prefix = commandLine.prefix();
        if (prefix)
            window.setPrefix(*prefix);
        if (commandLine.sandboxAsked() || !connection->endpointsGiven) {
            // The demo shows its own prefix: not when the user named one.
            if (!commandLine.noLab() && !commandLine.readOnly() && !prefix)
                window.startLabDemoWhenConnected(); // a queue moving within seconds
            window.startSandbox(commandLine.etcdProgram(), commandLine.sandboxMembers());
        } else
            window.openConnection(*connection);
        window.restoreOpenClusters();
        exitCode = QApplication::exec();
    }
    // A sandbox still starting when the window closed is stopped once its start-up check ends.
    QThreadPool::globalInstance()->waitForDone();
    return exitCode;
}
