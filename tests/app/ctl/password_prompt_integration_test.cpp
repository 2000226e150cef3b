// lockscopectl's password prompt on a real pseudo-terminal, against a real etcd with
// authentication on: `--user name` without a password asks for it as etcdctl does.
#include "process/local_cluster.h"
#include "support/etcd_auth.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QTest>
#include <QThread>
#include <memory>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

using lockscope::test::authPassword;
using lockscope::test::authUser;

namespace {

// What a terminal user saw of one lockscopectl run.
struct TerminalRun {
    QByteArray screen; // everything lockscopectl wrote to the terminal, and its echo
    bool prompted = false;
    int exitCode = -1;      // -1 unless it exited normally
    int signal = 0;         // the signal that ended it, if one did
    bool echoAfter = false; // the terminal's echo setting once it ended
};

// Reads what the terminal shows until `until` appears (or, empty, until the program closes the
// terminal) or the deadline passes. False on timeout.
bool readScreen(int master, QByteArray& screen, const QByteArray& until, QDeadlineTimer deadline) {
    while (until.isEmpty() || !screen.contains(until)) {
        pollfd ready{master, POLLIN, 0};
        const int remaining = static_cast<int>(deadline.remainingTime());
        if (remaining <= 0 || ::poll(&ready, 1, remaining) <= 0)
            return false;
        char buffer[4096];
        const ssize_t n = ::read(master, buffer, sizeof buffer);
        if (n <= 0)
            return until.isEmpty(); // EIO: every holder of the terminal closed it
        screen.append(buffer, n);
    }
    return true;
}

// Runs lockscopectl on a new pseudo-terminal (its controlling terminal) and types `typed` once
// it shows "Password: ". Its environment is ours without ETCDCTL_* settings.
TerminalRun runOnTerminal(const QStringList& arguments, const QByteArray& typed) {
    std::vector<std::string> argumentText = {LOCKSCOPECTL_PATH};
    for (const QString& argument : arguments)
        argumentText.push_back(argument.toStdString());
    std::vector<char*> argv;
    for (std::string& text : argumentText)
        argv.push_back(text.data());
    argv.push_back(nullptr);
    std::vector<std::string> environmentText;
    for (char** variable = environ; *variable; ++variable)
        if (std::string_view(*variable).rfind("ETCDCTL_", 0) != 0)
            environmentText.emplace_back(*variable);
    std::vector<char*> envp;
    for (std::string& text : environmentText)
        envp.push_back(text.data());
    envp.push_back(nullptr);

    TerminalRun run;
    int master = -1;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
    if (pid < 0)
        return run;
    if (pid == 0) {
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    const QDeadlineTimer deadline(30000);
    run.prompted = readScreen(master, run.screen, "Password: ", deadline);
    if (run.prompted) {
        [[maybe_unused]] const auto written = ::write(master, typed.data(), typed.size());
        readScreen(master, run.screen, {}, deadline);
    }
    int status = 0;
    pid_t reaped = 0;
    while ((reaped = ::waitpid(pid, &status, WNOHANG)) == 0 && !deadline.hasExpired())
        QThread::msleep(20);
    if (reaped == 0) { // hung: the test fails on its exit code, and nothing is left running
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    } else if (reaped == pid) {
        if (WIFEXITED(status))
            run.exitCode = WEXITSTATUS(status);
        if (WIFSIGNALED(status))
            run.signal = WTERMSIG(status);
    }
    termios settings{};
    run.echoAfter = ::tcgetattr(master, &settings) == 0 && (settings.c_lflag & ECHO);
    ::close(master);
    return run;
}

} // namespace

class PasswordPromptIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
        const std::string problem =
            lockscope::test::enableAuthentication(etcd_.cluster().endpointList());
        QVERIFY2(problem.empty(), problem.c_str());
        endpoint_ = QString::fromStdString(etcd_.cluster().endpoint(0));
    }

    void cleanupTestCase() { etcd_.stop(); }

    void thePasswordIsAskedWithoutEchoAndWorks() {
        const TerminalRun run =
            runOnTerminal({"--endpoints", endpoint_, "--user", QString::fromStdString(authUser),
                           "status", "--json"},
                          QByteArray::fromStdString(authPassword) + "\n");
        QVERIFY2(run.prompted, run.screen.constData());
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.screen.contains("\"error\":null"), run.screen.constData());
        QVERIFY2(!run.screen.contains(QByteArray::fromStdString(authPassword)),
                 run.screen.constData()); // not echoed
        QVERIFY(run.echoAfter);
    }

    void aWrongTypedPasswordIsRefusedByEtcd() {
        const TerminalRun run = runOnTerminal(
            {"--endpoints", endpoint_, "--user", QString::fromStdString(authUser), "status"},
            "wrong\n");
        QVERIFY2(run.prompted, run.screen.constData());
        QVERIFY2(run.screen.contains("authentication failed"), run.screen.constData());
        QVERIFY2(!run.screen.contains("wrong"), run.screen.constData());
        QVERIFY(run.echoAfter);
    }

    void ctrlCAtThePromptLeavesEchoOn() {
        const TerminalRun run = runOnTerminal(
            {"--endpoints", endpoint_, "--user", QString::fromStdString(authUser), "status"},
            "\x03");
        QVERIFY2(run.prompted, run.screen.constData());
        QCOMPARE(run.signal, SIGINT);
        QVERIFY(run.echoAfter);
    }

    void withoutATerminalItSaysHowElseToGiveThePassword() {
        QProcess process;
        process.setChildProcessModifier([] { ::setsid(); }); // no controlling terminal
        process.start(LOCKSCOPECTL_PATH, {"--endpoints", endpoint_, "--user",
                                          QString::fromStdString(authUser), "status"});
        process.closeWriteChannel();
        QVERIFY(process.waitForFinished(30000));
        const QString error = QString::fromLocal8Bit(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 2);
        QVERIFY2(error.contains("no terminal") && error.contains("--password") &&
                     error.contains("ETCDCTL_PASSWORD"),
                 qPrintable(error));
    }

    void thePasswordFlagAndVariableNeedNoTerminal() {
        for (const bool fromVariable : {false, true}) {
            QProcess process;
            process.setChildProcessModifier([] { ::setsid(); });
            QStringList arguments = {"--endpoints", endpoint_, "--user",
                                     QString::fromStdString(authUser)};
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            if (fromVariable)
                environment.insert("ETCDCTL_PASSWORD", QString::fromStdString(authPassword));
            else
                arguments << "--password" << QString::fromStdString(authPassword);
            process.setProcessEnvironment(environment);
            process.start(LOCKSCOPECTL_PATH, arguments << "status"
                                                       << "--json");
            QVERIFY(process.waitForFinished(30000));
            const QByteArray out = process.readAllStandardOutput();
            QVERIFY2(process.exitCode() == 0 && out.contains("\"error\":null"), out.constData());
        }
    }

private:
    lockscope::test::LocalEtcd etcd_;
    QString endpoint_;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(PasswordPromptIntegrationTest)
#include "password_prompt_integration_test.moc"
