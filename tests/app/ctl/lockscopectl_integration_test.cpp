// Runs the built lockscopectl against a real etcd started by etcd::LocalCluster.
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "process/local_cluster.h"
#include "support/local_etcd.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <memory>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

Run runCtl(const QStringList& arguments, const QProcessEnvironment& environment = {}) {
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("ETCDCTL_ENDPOINTS"); // the host's settings must not leak into the test
    for (const QString& name : environment.keys())
        env.insert(name, environment.value(name));
    process.setProcessEnvironment(env);
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
    run.err = QString::fromLocal8Bit(process.readAllStandardError());
    return run;
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

private:
    lockscope::test::LocalEtcd etcd_;
    QString endpoint_;
    qint64 revision_ = 0;
};

QTEST_GUILESS_MAIN(LockscopectlIntegrationTest)
#include "lockscopectl_integration_test.moc"
