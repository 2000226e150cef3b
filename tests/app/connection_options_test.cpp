#include "app/core/connection_options.h"
#include "app/core/go_duration.h"

#include <QCommandLineParser>
#include <QProcessEnvironment>
#include <QTemporaryFile>
#include <QTest>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

struct Parsed {
    std::optional<ConnectionOptions> options;
    QString error;
};

Parsed parse(const QStringList& flags, const QList<QPair<QString, QString>>& environment = {}) {
    QCommandLineParser parser;
    ConnectionOptions::addFlags(parser);
    if (!parser.parse(QStringList{"lockscopectl"} + flags))
        return {std::nullopt, "command line: " + parser.errorText()};
    QProcessEnvironment env(QProcessEnvironment::InheritFromParent);
    env.clear();
    for (const auto& [name, value] : environment)
        env.insert(name, value);
    Parsed parsed;
    parsed.options = ConnectionOptions::read(parser, env, parsed.error);
    return parsed;
}

std::vector<std::string> strings(std::initializer_list<const char*> items) {
    return {items.begin(), items.end()};
}

} // namespace

class ConnectionOptionsTest : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreEtcdctls() {
        const Parsed parsed = parse({});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QVERIFY(!parsed.options->endpointsGiven);
        QCOMPARE(parsed.options->client.endpoints, strings({"127.0.0.1:2379"}));
        QCOMPARE(parsed.options->client.dialTimeout, 2000ms);
        QCOMPARE(parsed.options->client.commandTimeout, 5000ms);
        QVERIFY(parsed.options->client.username.empty());
    }

    void endpointsFlagIsSplitAndTrimmed() {
        const Parsed parsed = parse({"--endpoints", "10.0.0.1:2379, http://10.0.0.2:2379"});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QVERIFY(parsed.options->endpointsGiven);
        QCOMPARE(parsed.options->client.endpoints,
                 strings({"10.0.0.1:2379", "http://10.0.0.2:2379"}));
    }

    void environmentIsReadWhenNoFlag() {
        const Parsed parsed = parse({}, {{"ETCDCTL_ENDPOINTS", "e1:1,e2:2"},
                                         {"ETCDCTL_USER", "alice:secret"},
                                         {"ETCDCTL_DIAL_TIMEOUT", "3s"},
                                         {"ETCDCTL_COMMAND_TIMEOUT", "750ms"}});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QVERIFY(parsed.options->endpointsGiven);
        QCOMPARE(parsed.options->client.endpoints, strings({"e1:1", "e2:2"}));
        QCOMPARE(parsed.options->client.username, std::string("alice"));
        QCOMPARE(parsed.options->client.password, std::string("secret"));
        QCOMPARE(parsed.options->client.dialTimeout, 3000ms);
        QCOMPARE(parsed.options->client.commandTimeout, 750ms);
    }

    void flagsWinOverEnvironment() {
        const Parsed parsed = parse(
            {"--endpoints=flag:1", "--user=bob:pw", "--dial-timeout=1s", "--command-timeout=9s"},
            {{"ETCDCTL_ENDPOINTS", "env:1"},
             {"ETCDCTL_USER", "alice:secret"},
             {"ETCDCTL_DIAL_TIMEOUT", "garbage"},
             {"ETCDCTL_COMMAND_TIMEOUT", "3s"}});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QCOMPARE(parsed.options->client.endpoints, strings({"flag:1"}));
        QCOMPARE(parsed.options->client.username, std::string("bob"));
        QCOMPARE(parsed.options->client.dialTimeout, 1000ms);
        QCOMPARE(parsed.options->client.commandTimeout, 9000ms);
    }

    void emptyEnvironmentVariableIsUnset() {
        const Parsed parsed = parse({}, {{"ETCDCTL_ENDPOINTS", ""}});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QVERIFY(!parsed.options->endpointsGiven);
    }

    void userIsSplitAtTheFirstColon() {
        const Parsed parsed = parse({"--user", "root:pa:ss:"});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QCOMPARE(parsed.options->client.username, std::string("root"));
        QCOMPARE(parsed.options->client.password, std::string("pa:ss:"));
    }

    void userWithoutPasswordOrNameIsRejected_data() {
        QTest::addColumn<QString>("user");
        QTest::newRow("no colon") << "root";
        QTest::newRow("no name") << ":secret";
    }
    void userWithoutPasswordOrNameIsRejected() {
        QFETCH(QString, user);
        const Parsed parsed = parse({"--user", user});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains("--user") && parsed.error.contains("name:password"),
                 qPrintable(parsed.error));
    }

    void durations_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("milliseconds");
        QTest::newRow("seconds") << "2s" << qint64(2000);
        QTest::newRow("milliseconds") << "500ms" << qint64(500);
        QTest::newRow("minutes") << "1m" << qint64(60000);
        QTest::newRow("hours") << "1h" << qint64(3600000);
        QTest::newRow("compound") << "1m30s" << qint64(90000);
        QTest::newRow("fraction") << "1.5s" << qint64(1500);
        QTest::newRow("leading dot") << ".25s" << qint64(250);
        QTest::newRow("microseconds round up") << "250us" << qint64(1);
        QTest::newRow("micro sign") << "2000µs" << qint64(2);
        QTest::newRow("nanoseconds") << "3000000ns" << qint64(3);
        QTest::newRow("zero") << "0s" << qint64(0);
    }
    void durations() {
        QFETCH(QString, text);
        QFETCH(qint64, milliseconds);
        const auto parsed = parseGoDuration(text);
        QVERIFY(parsed.has_value());
        QCOMPARE(parsed->count(), milliseconds);
    }

    void badDurations_data() {
        QTest::addColumn<QString>("text");
        for (const char* text :
             {"", "abc", "5", "-1s", "2 s", "s", "1.2.3s", "1d", "1e3s", "99999999999h"})
            QTest::newRow(text[0] ? text : "empty") << QString::fromUtf8(text);
    }
    void badDurations() {
        QFETCH(QString, text);
        QVERIFY(!parseGoDuration(text).has_value());
    }

    void badTimeoutNamesWhereItCameFrom() {
        Parsed parsed = parse({"--command-timeout", "soon"});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains("--command-timeout") && parsed.error.contains("\"soon\"") &&
                     parsed.error.contains("2s"),
                 qPrintable(parsed.error));

        parsed = parse({}, {{"ETCDCTL_DIAL_TIMEOUT", "10"}});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains("ETCDCTL_DIAL_TIMEOUT") && parsed.error.contains("\"10\""),
                 qPrintable(parsed.error));

        parsed = parse({"--dial-timeout=0s"});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains("positive"), qPrintable(parsed.error));
    }

    void badEndpointsAreRejected_data() {
        QTest::addColumn<QString>("endpoints");
        QTest::addColumn<QString>("expected");
        QTest::newRow("scheme") << "ftp://h:1"
                                << "scheme";
        QTest::newRow("no port") << "localhost"
                                 << "port";
        QTest::newRow("port not a number") << "h:x1"
                                           << "port";
        QTest::newRow("empty item") << "a:1,,b:2"
                                    << "empty";
        QTest::newRow("empty flag") << ""
                                    << "empty";
    }
    void badEndpointsAreRejected() {
        QFETCH(QString, endpoints);
        QFETCH(QString, expected);
        const Parsed parsed = parse({"--endpoints=" + endpoints});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.startsWith("--endpoints") && parsed.error.contains(expected),
                 qPrintable(parsed.error));
    }

    void tlsFilesMustBeReadable() {
        Parsed parsed = parse({"--cacert", "/nonexistent/ca.pem"});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains("--cacert") && parsed.error.contains("/nonexistent/ca.pem"),
                 qPrintable(parsed.error));

        QTemporaryFile pem;
        QVERIFY(pem.open());
        parsed =
            parse({"--cacert", pem.fileName(), "--cert", pem.fileName(), "--key", pem.fileName()});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QCOMPARE(parsed.options->client.caFile, pem.fileName().toStdString());
        QCOMPARE(parsed.options->client.certFile, pem.fileName().toStdString());
        QCOMPARE(parsed.options->client.keyFile, pem.fileName().toStdString());
    }

    void certificateNeedsItsKey() {
        QTemporaryFile pem;
        QVERIFY(pem.open());
        const Parsed parsed = parse({"--cert", pem.fileName()});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains("--key"), qPrintable(parsed.error));
    }
};

QTEST_GUILESS_MAIN(ConnectionOptionsTest)
#include "connection_options_test.moc"
