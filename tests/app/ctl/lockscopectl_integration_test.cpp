// Runs the built lockscopectl against a real etcd started by etcd::LocalCluster, in English
// (LANG=C) unless a test asks for Simplified Chinese.
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "process/local_cluster.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

// lockscopectl's environment: English, nothing of the host's settings, then `environment`.
QProcessEnvironment ctlEnvironment(const QProcessEnvironment& environment) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("ETCDCTL_ENDPOINTS"); // the host's settings must not leak into the test
    for (const char* language : {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_NUMERIC"})
        env.remove(language);
    env.insert("LANG", "C");
    for (const QString& name : environment.keys())
        env.insert(name, environment.value(name));
    return env;
}

Run runCtl(const QStringList& arguments, const QProcessEnvironment& environment = {}) {
    QProcess process;
    process.setProcessEnvironment(ctlEnvironment(environment));
    process.start(LOCKSCOPECTL_PATH, arguments);
    Run run;
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        run.err = "lockscopectl did not finish within 30 s";
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

Run runInChinese(const QStringList& arguments) {
    QProcessEnvironment chinese;
    chinese.insert("LANG", "zh_CN.UTF-8");
    return runCtl(arguments, chinese);
}

// The first line lockscopectl prints on stdout within 15 s; it is then ended with SIGTERM.
QByteArray firstLine(const QStringList& arguments, const QProcessEnvironment& environment) {
    QProcess process;
    process.setProcessEnvironment(ctlEnvironment(environment));
    process.start(LOCKSCOPECTL_PATH, arguments);
    QDeadlineTimer deadline(15000);
    while (!process.canReadLine() && !deadline.hasExpired() &&
           process.state() != QProcess::NotRunning)
        process.waitForReadyRead(static_cast<int>(deadline.remainingTime()));
    const QByteArray line = process.readLine().trimmed();
    process.terminate();
    if (!process.waitForFinished(10000))
        process.kill();
    return line;
}

QJsonDocument parsed(const QByteArray& json) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), json.constData());
    return document;
}

QJsonArray parseRows(const Run& run) {
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError || !document.isArray())
        qWarning("not a JSON array (%s): %s", qPrintable(error.errorString()), run.out.constData());
    return document.array();
}

} // namespace

class LockscopectlIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
        endpoint_ = QString::fromStdString(etcd_.cluster().endpoint(0));

        // A write, so the revision to look for is one this test made.
        etcd::pb::PutRequest put;
        put.set_key("/lockscopectl-test/key");
        put.set_value("v");
        const auto reply = etcd::call(etcd_.client(), &etcd::Client::put, put);
        QVERIFY2(reply, reply.error().message.c_str());
        revision_ = reply->header().revision();
        QVERIFY(revision_ > 1);
    }

    void cleanupTestCase() { etcd_.stop(); }

    void statusJsonHasRealFigures() {
        const Run run = runCtl({"--endpoints", endpoint_, "status", "--json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonArray rows = parseRows(run);
        QCOMPARE(rows.size(), 1);
        const QJsonObject row = rows.at(0).toObject();
        QCOMPARE(row["endpoint"].toString(), endpoint_);
        QVERIFY(row["error"].isNull());
        QVERIFY2(row["version"].toString().startsWith("3."), qPrintable(row["version"].toString()));
        QCOMPARE(row["revision"].toInteger(), revision_);
        bool hex = false;
        const quint64 leader = row["leader"].toString().toULongLong(&hex, 16);
        QVERIFY(hex && leader != 0);
        QCOMPARE(row["member_id"].toString(), row["leader"].toString()); // a one-member cluster
        QCOMPARE(row["is_leader"].toBool(), true);
        QVERIFY(row["raft_term"].toInteger() >= 1);
        QVERIFY(row["raft_index"].toInteger() >= revision_);
        QVERIFY(row["db_size"].toInteger() > 0);
        QVERIFY(row["db_size_in_use"].toInteger() > 0);
        QVERIFY(row["round_trip_ms"].toDouble() > 0);
    }

    void statusTableNamesTheEndpoint() {
        const Run run = runCtl({"--endpoints=" + endpoint_, "status"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QString table = QString::fromUtf8(run.out);
        QVERIFY2(table.contains("ENDPOINT") && table.contains("REVISION"), qPrintable(table));
        QVERIFY2(table.contains("| " + endpoint_ + " |"), qPrintable(table));
        QVERIFY2(table.contains(QRegularExpression("\\|\\s+3\\.\\d+\\.\\d+ \\|")),
                 qPrintable(table));
    }

    void endpointsComeFromTheEnvironment() {
        QProcessEnvironment environment;
        environment.insert("ETCDCTL_ENDPOINTS", endpoint_);
        const Run run = runCtl({"status", "--json"}, environment);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(parseRows(run).at(0).toObject()["endpoint"].toString(), endpoint_);
    }

    void deadEndpointFailsItsRowOnly() {
        const Run run = runCtl(
            {"--endpoints", endpoint_ + ",127.0.0.1:1", "--dial-timeout=1s", "status", "--json"});
        QCOMPARE(run.exitCode, 1);
        const QJsonArray rows = parseRows(run);
        QCOMPARE(rows.size(), 2);
        const QJsonObject live = rows.at(0).toObject();
        QVERIFY(live["error"].isNull());
        QCOMPARE(live["revision"].toInteger(), revision_);
        const QJsonObject dead = rows.at(1).toObject();
        QCOMPARE(dead["endpoint"].toString(), QString("127.0.0.1:1"));
        QVERIFY2(!dead["error"].toString().isEmpty(), run.out.constData());
        QVERIFY(dead["revision"].isNull());
        QVERIFY2(run.err.contains("1 of 2 endpoints did not answer"), qPrintable(run.err));
    }

    void usageErrorsExitTwoWithAMessage_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad duration")
            << QStringList{"--dial-timeout", "banana", "status"} << "--dial-timeout: \"banana\"";
        QTest::newRow("bad endpoint")
            << QStringList{"--endpoints", "ftp://x:1", "status"} << "unsupported scheme";
        QTest::newRow("unknown flag") << QStringList{"--frobnicate", "status"} << "frobnicate";
        QTest::newRow("unknown command") << QStringList{"frob"} << "unknown command \"frob\"";
        QTest::newRow("no command") << QStringList{} << "no command given";
        QTest::newRow("bad status flag") << QStringList{"status", "--yaml"} << "yaml";
        // Every prefix command refuses an empty PREFIX (the whole keyspace) the same way.
        for (const char* command : {"snapshot", "watch", "exporter"})
            QTest::newRow(qPrintable(QString("empty %1 prefix").arg(command)))
                << QStringList{command, ""} << "non-empty PREFIX";
        QTest::newRow("negative lab duration")
            << QStringList{"lab", "--duration", "-1s"} << "--duration: \"-1s\"";
        QTest::newRow("lab workers not a number")
            << QStringList{"lab", "--workers", "ten"} << "--workers: \"ten\"";
        // Refused before anything is dialled: no status table first.
        QTest::newRow("cacert a directory")
            << QStringList{"--cacert", "/tmp", "status"} << "--cacert: cannot read \"/tmp\"";
        QTest::newRow("cacert not PEM")
            << QStringList{"--cacert", LOCKSCOPECTL_PATH, "status"} << "--cacert file";
    }
    void usageErrorsExitTwoWithAMessage() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run run = runCtl(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.out.isEmpty());
    }

    void helpAndVersion() {
        Run run = runCtl({"--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("--endpoints") && run.out.contains("status"));
        run = runCtl({"--version"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("lockscopectl "));
    }

    // Each command the main help lists answers --help with its usage.
    void everyCommandHasHelp() {
        const Run main = runCtl({"--help"});
        QCOMPARE(main.exitCode, 0);
        QStringList commands;
        static const QRegularExpression commandLine("^  ([a-z]+)  ");
        for (const QString& line :
             QString::fromUtf8(main.out).section("\nCommands:\n", 1).split('\n'))
            if (const auto match = commandLine.match(line); match.hasMatch())
                commands << match.captured(1);
        QCOMPARE(commands, (QStringList{"status", "lock", "elect", "snapshot", "blockers", "watch",
                                        "record", "history", "lab", "exporter"}));
        for (const QString& command : commands) {
            const Run help = runCtl({command, "--help"});
            QVERIFY2(help.exitCode == 0, qPrintable(command + ": " + help.err));
            QVERIFY2(help.out.startsWith("Usage: lockscopectl [connection flags] " +
                                         command.toUtf8() + ' '),
                     help.out.constData());
        }
    }

    // The exporter writes the Prometheus text format: its help offers no --json, nor does it.
    void theExporterOffersNoJson() {
        const Run help = runCtl({"exporter", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(!help.out.contains("--json"), help.out.constData());
        const Run run = runCtl({"--endpoints", endpoint_, "exporter", "/locks/", "--json"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("json"), qPrintable(run.err));
    }

    void helpInTheLocalesLanguage() {
        const Run chinese = runInChinese({"--help"});
        QCOMPARE(chinese.exitCode, 0);
        const QString out = QString::fromUtf8(chinese.out);
        QVERIFY2(out.startsWith("用法：lockscopectl [连接参数] <命令> [参数]\n"), qPrintable(out));
        QVERIFY2(out.contains("\n命令：\n"), qPrintable(out));
        QVERIFY2(out.contains("显示 PREFIX 下的每个锁：持有者、等待队列、TTL（--json）。"),
                 qPrintable(out));
        QVERIFY2(out.contains("连接超过此时长即放弃（默认 2s）。"), qPrintable(out));
        QVERIFY2(out.contains("选项："), qPrintable(out)); // Qt's own heading
        QVERIFY2(!out.contains("Commands:"), qPrintable(out));

        const Run english = runCtl({"--help"});
        QCOMPARE(english.exitCode, 0);
        QVERIFY2(
            english.out.startsWith("Usage: lockscopectl [connection flags] <command> [args]\n"),
            english.out.constData());
        QVERIFY2(english.out.contains("\nCommands:\n"), english.out.constData());
        QVERIFY2(english.out.contains("Options:"), english.out.constData());
    }

    void problemsInTheLocalesLanguage() {
        const Run help = runInChinese({"snapshot", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.contains("显示此帮助。"), help.out.constData());
        QVERIFY2(help.out.contains("输出 JSON 而不是文本。"), help.out.constData());

        Run run = runInChinese({"frobnicate"});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QString("lockscopectl: 未知命令“frobnicate”\n"
                                  "运行“lockscopectl --help”查看用法。\n"));
        run = runInChinese({"snapshot"});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QString("lockscopectl snapshot：需要一个 PREFIX，如 /locks/\n"
                                  "运行“lockscopectl snapshot --help”查看帮助。\n"));
        run = runCtl({"frobnicate"});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QString("lockscopectl: unknown command \"frobnicate\"\n"
                                  "Run 'lockscopectl --help' for usage.\n"));
    }

    // Against the server: a status table's headers are translated, its JSON is not.
    void statusInChinese() {
        const Run table = runInChinese({"--endpoints", endpoint_, "status"});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("端点") && table.out.contains("修订号"), table.out.constData());
        const Run json = runInChinese({"--endpoints", endpoint_, "status", "--json"});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject row = parseRows(json).at(0).toObject();
        QVERIFY2(row.contains("endpoint") && row.value("revision").toInteger() >= revision_,
                 json.out.constData());
    }

    // Last: its lab writes, moving the revision the tests above expect.
    // JSON's numbers take a point whatever the locale: under de_DE (a decimal comma, and
    // QCoreApplication sets LC_NUMERIC from LANG) every --json output still parses, with the
    // fractions that printf's %f would write as "1,500".
    void everyJsonOutputParsesUnderACommaLocale() {
        QTemporaryDir locales;
        QProcessEnvironment german;
        german.insert("LANG", "de_DE.UTF-8");
        QProcess installed;
        installed.start("locale", {"-a"});
        QVERIFY(installed.waitForFinished());
        if (!installed.readAllStandardOutput().contains("de_DE.utf8")) {
            // Generated where glibc looks when told to (LOCPATH); Debian's locales package
            // has the definitions.
            const int made = QProcess::execute(
                "localedef", {"-i", "de_DE", "-f", "UTF-8", locales.filePath("de_DE.UTF-8")});
            QCOMPARE(made, 0);
            german.insert("LOCPATH", locales.path());
        }

        Run run = runCtl({"--endpoints", endpoint_, "status", "--json"}, german);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject row = parseRows(run).at(0).toObject();
        QVERIFY2(row["round_trip_ms"].toDouble() > 0, run.out.constData());

        run =
            runCtl({"--endpoints", endpoint_, "snapshot", "/lockscopectl-test/", "--json"}, german);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(parsed(run.out)["revision"].toInteger() >= revision_, run.out.constData());

        run = runCtl({"--endpoints", endpoint_, "lab", "--workers", "2", "--duration", "1s",
                      "--locks", "/lockscopectl-test/lab", "--json"},
                     german);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(parsed(run.out)["seconds"].toDouble() >= 0.9, run.out.constData());

        // watch --json's lines: its lock events carry no fraction, its reconnecting line does.
        const QByteArray reconnecting = firstLine(
            {"--endpoints", "127.0.0.1:1", "--dial-timeout", "1s", "watch", "/x/", "--json"},
            german);
        QVERIFY2(parsed(reconnecting)["next_in_s"].toDouble() > 0, reconnecting.constData());
    }

private:
    lockscope::test::LocalEtcd etcd_;
    QString endpoint_;
    qint64 revision_ = 0;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockscopectlIntegrationTest)
#include "lockscopectl_integration_test.moc"
