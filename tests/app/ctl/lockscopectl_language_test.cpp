// lockscopectl speaks the system's language: Simplified Chinese under LANG=zh_CN.UTF-8 (its
// own texts and Qt's), English under LANG=C. No server: --help and usage errors only.
#include <QProcess>
#include <QTest>

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run lockscopectl(const QString& lang, const QStringList& arguments) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* overriding : {"LANGUAGE", "LC_ALL", "LC_MESSAGES"})
        environment.remove(overriding);
    environment.insert("LANG", lang);
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(LOCKSCOPECTL_PATH, arguments);
    Run run;
    if (!process.waitForFinished(30000))
        return run;
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace

class LockscopectlLanguageTest : public QObject {
    Q_OBJECT
private slots:
    void helpInChinese() {
        const Run run = lockscopectl("zh_CN.UTF-8", {"--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("用法：lockscopectl [连接参数] <命令> [参数]\n"),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains("\n命令：\n"), qPrintable(run.out));
        QVERIFY2(run.out.contains("显示 PREFIX 下的每个锁：持有者、等待队列、TTL（--json）。"),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains("连接超过此时长即放弃（默认 2s）。"), qPrintable(run.out));
        QVERIFY2(run.out.contains("选项："), qPrintable(run.out)); // Qt's own heading
        QVERIFY2(!run.out.contains("Commands:"), qPrintable(run.out));
    }

    void helpInEnglish() {
        const Run run = lockscopectl("C", {"--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("Usage: lockscopectl [connection flags] <command> [args]\n"),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains("\nCommands:\n"), qPrintable(run.out));
        QVERIFY2(run.out.contains("Options:"), qPrintable(run.out));
    }

    void subcommandHelpAndProblemsInChinese() {
        const Run help = lockscopectl("zh_CN.UTF-8", {"snapshot", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("显示此帮助。"), qPrintable(help.out));
        QVERIFY2(help.out.contains("输出 JSON 而不是文本。"), qPrintable(help.out));

        const Run unknown = lockscopectl("zh_CN.UTF-8", {"frobnicate"});
        QCOMPARE(unknown.exitCode, 2);
        QCOMPARE(unknown.err, QString("lockscopectl: 未知命令“frobnicate”\n"
                                      "运行“lockscopectl --help”查看用法。\n"));

        const Run noPrefix = lockscopectl("zh_CN.UTF-8", {"snapshot"});
        QCOMPARE(noPrefix.exitCode, 2);
        QCOMPARE(noPrefix.err, QString("lockscopectl snapshot：需要一个 PREFIX，如 /locks/\n"
                                       "运行“lockscopectl snapshot --help”查看帮助。\n"));
    }

    void problemsInEnglishUnderC() {
        const Run unknown = lockscopectl("C", {"frobnicate"});
        QCOMPARE(unknown.exitCode, 2);
        QCOMPARE(unknown.err, QString("lockscopectl: unknown command \"frobnicate\"\n"
                                      "Run 'lockscopectl --help' for usage.\n"));
    }
};

QTEST_GUILESS_MAIN(LockscopectlLanguageTest)
#include "lockscopectl_language_test.moc"
