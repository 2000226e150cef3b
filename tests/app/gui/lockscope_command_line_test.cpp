// `lockscope --help`, `--version` and usage errors run as a user would run them on a machine with
// no display: the built program as a child process, with DISPLAY, WAYLAND_DISPLAY and
// QT_QPA_PLATFORM unset (a QApplication aborts there), in English unless a test asks for the
// system's Chinese or the View ▸ Language setting, kept in a settings folder of its own.
#include "app/gui/lockscope_command_line.h"
#include "app/gui/program_versions.h"
#include "support/qtest_registry.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;

namespace {

struct Run {
    QProcess::ExitStatus status = QProcess::CrashExit;
    int exitCode = -1;
    QString out;
    QString err;
};

// Where the runs keep LockScope's settings (XDG_CONFIG_HOME), away from the user's own.
const QTemporaryDir& settingsHome() {
    static const QTemporaryDir home;
    return home;
}

Run runWithoutDisplay(const QStringList& arguments, const QString& lang = "C") {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name :
         {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "LANGUAGE", "LC_ALL", "LC_MESSAGES"})
        environment.remove(name);
    environment.insert("LANG", lang);
    environment.insert("XDG_CONFIG_HOME", settingsHome().path());
    QProcess lockscope;
    lockscope.setProcessEnvironment(environment);
    lockscope.start(LOCKSCOPE_BINARY, arguments);
    Run run;
    if (!lockscope.waitForFinished(30000)) {
        lockscope.kill();
        lockscope.waitForFinished();
        run.err = "did not finish within 30 s";
        return run;
    }
    run.status = lockscope.exitStatus();
    run.exitCode = lockscope.exitCode();
    run.out = QString::fromLocal8Bit(lockscope.readAllStandardOutput());
    run.err += QString::fromLocal8Bit(lockscope.readAllStandardError());
    return run;
}

} // namespace

class LockscopeCommandLineTest : public QObject {
    Q_OBJECT
private slots:
    // With no display, a usage error is still a usage error (exit 2, saying which argument), and
    // a plain start says there is no display: neither aborts in QApplication.
    void usageErrorsAndAPlainStartAnswerWithoutADisplay() {
        const Run bogus = runWithoutDisplay({"--no-such-flag"});
        QVERIFY2(bogus.status == QProcess::NormalExit, qPrintable(bogus.err));
        QCOMPARE(bogus.exitCode, 2);
        QVERIFY2(bogus.err.contains("no-such-flag") && bogus.err.contains("lockscope --help"),
                 qPrintable(bogus.err));

        const Run plain = runWithoutDisplay({});
        QVERIFY2(plain.status == QProcess::NormalExit, qPrintable(plain.err));
        QCOMPARE(plain.exitCode, 1);
        QVERIFY2(plain.err.contains("no display"), qPrintable(plain.err));
    }
    void helpPrintsUsageWithoutADisplay_data() {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--help") << "--help";
        QTest::newRow("-h") << "-h";
        QTest::newRow("--help-all") << "--help-all";
    }
    void helpPrintsUsageWithoutADisplay() {
        QFETCH(QString, flag);
        const Run run = runWithoutDisplay({flag});
        QVERIFY2(run.status == QProcess::NormalExit, qPrintable(run.err));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("Usage: "), qPrintable(run.out));
        for (const char* option :
             {"--endpoints", "--sandbox", "--prefix", "--read-only", "--version"})
            QVERIFY2(run.out.contains(option), option);
        // No arguments start a sandbox: help must not promise a local default endpoint.
        QVERIFY2(!run.out.contains("127.0.0.1:2379"), qPrintable(run.out));
        QVERIFY2(run.out.contains("LockScope starts a sandbox etcd of its own"),
                 qPrintable(run.out));
    }

    void helpSpeaksTheSystemsChinese() {
        const Run run = runWithoutDisplay({"--help"}, "zh_CN.UTF-8");
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("无：LockScope 启动自己的沙箱 etcd"), qPrintable(run.out));
        QVERIFY2(run.out.contains("隐藏所有写入操作。"), qPrintable(run.out));
        QVERIFY2(!run.out.contains("Hide every action that writes."), qPrintable(run.out));
    }

    // View ▸ Language's choice wins over LANG=C, before the window exists.
    void helpSpeaksTheChosenLanguage() {
        const QString file = settingsHome().path() + "/LockScope/LockScope.conf";
        QSettings(file, QSettings::IniFormat).setValue("language", "zh_CN");
        const Run chosen = runWithoutDisplay({"--help"});
        QSettings(file, QSettings::IniFormat).remove("language");
        QCOMPARE(chosen.exitCode, 0);
        QVERIFY2(chosen.out.contains("隐藏所有写入操作。"), qPrintable(chosen.out));
        const Run system = runWithoutDisplay({"--help"});
        QVERIFY2(system.out.contains("Hide every action that writes."), qPrintable(system.out));
    }

    void versionPrintsEachLibrarysVersionWithoutADisplay_data() {
        QTest::addColumn<QString>("flag");
        QTest::newRow("--version") << "--version";
        QTest::newRow("-v") << "-v";
    }
    void versionPrintsEachLibrarysVersionWithoutADisplay() {
        QFETCH(QString, flag);
        const Run run = runWithoutDisplay({flag});
        QVERIFY2(run.status == QProcess::NormalExit, qPrintable(run.err));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, ProgramVersions::current().text());
        QVERIFY2(run.out.startsWith("LockScope " LOCKSCOPE_VERSION "\n"), qPrintable(run.out));
        QVERIFY(run.out.contains("\nQt 6."));
        QVERIFY(run.out.contains("\ngRPC 1."));
    }

    // --prefix is kept as typed, escapes and all (the prefix field reads it as it reads what is
    // typed there); a bad escape is a usage error that says which flag and why.
    void prefixIsTakenAsTypedAndABadEscapeIsAUsageError() {
        LockscopeCommandLine none;
        QVERIFY(none.parse({"lockscope"}));
        QVERIFY(!none.prefix());

        LockscopeCommandLine bytes;
        QVERIFY2(bytes.parse({"lockscope", "--prefix", "/jobs/\\xff"}),
                 qPrintable(bytes.errorText()));
        QCOMPARE(bytes.prefix(), std::optional<QString>("/jobs/\\xff"));

        LockscopeCommandLine bad;
        QVERIFY(!bad.parse({"lockscope", "--prefix", "/jobs/\\xZZ"}));
        QVERIFY2(bad.errorText().startsWith("--prefix: "), qPrintable(bad.errorText()));
    }

    // A span of a recording: a time or a revision at each end, only with --history.
    void aHistorySpanIsATimeOrARevisionAndGoesWithHistory() {
        LockscopeCommandLine span;
        QVERIFY2(span.parse({"lockscope", "--history", "locks.db", "--since",
                             "2026-11-27T03:00:00Z", "--until", "4711"}),
                 qPrintable(span.errorText()));
        const auto filter = span.historySpan();
        QVERIFY(filter.since == std::chrono::system_clock::time_point(
                                    std::chrono::milliseconds(1'795'748'400'000)));
        QCOMPARE(filter.untilRevision, std::optional<int64_t>(4711));
        QVERIFY(!filter.sinceRevision && !filter.until);

        LockscopeCommandLine alone;
        QVERIFY(!alone.parse({"lockscope", "--since", "4711"}));
        QVERIFY2(alone.errorText().contains("--since goes with --history"),
                 qPrintable(alone.errorText()));

        LockscopeCommandLine bad;
        QVERIFY(!bad.parse({"lockscope", "--history", "locks.db", "--until", "yesterday"}));
        QVERIFY2(bad.errorText().startsWith("--until yesterday: "), qPrintable(bad.errorText()));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockscopeCommandLineTest)
#include "lockscope_command_line_test.moc"
