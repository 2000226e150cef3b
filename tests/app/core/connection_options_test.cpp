#include "app/core/connection_options.h"
#include "app/core/go_duration.h"
#include "support/qtest_registry.h"

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

// Stands in for the terminal: answers `answer` (or fails as a missing terminal does) and
// remembers whom it was asked about.
struct FakePrompt {
    std::optional<std::string> answer;
    QStringList askedFor;

    PasswordPrompt function() {
        return [this](const QString& user, QString& error) {
            askedFor << user;
            if (!answer)
                error = "no terminal";
            return answer;
        };
    }
};

Parsed parse(const QStringList& flags, const QList<QPair<QString, QString>>& environment = {},
             const PasswordPrompt& prompt = nullptr) {
    QCommandLineParser parser;
    ConnectionOptions::addFlags(parser);
    if (!parser.parse(QStringList{"lockscopectl"} + flags))
        return {std::nullopt, "command line: " + parser.errorText()};
    QProcessEnvironment env(QProcessEnvironment::InheritFromParent);
    env.clear();
    for (const auto& [name, value] : environment)
        env.insert(name, value);
    Parsed parsed;
    parsed.options = ConnectionOptions::read(parser, env, prompt, parsed.error);
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

    void userWithoutPasswordIsAskedFor() {
        FakePrompt prompt{"typed:pw", {}};
        const Parsed parsed = parse({"--user", "root"}, {}, prompt.function());
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QCOMPARE(prompt.askedFor, QStringList{"root"});
        QCOMPARE(parsed.options->client.username, std::string("root"));
        QCOMPARE(parsed.options->client.password, std::string("typed:pw"));
        QVERIFY(!parsed.options->needsPassword);
    }

    void aPromptThatCannotAskFailsTheRead() {
        FakePrompt prompt{std::nullopt, {}};
        const Parsed parsed = parse({}, {{"ETCDCTL_USER", "root"}}, prompt.function());
        QVERIFY(!parsed.options);
        QCOMPARE(parsed.error, QString("no terminal"));
    }

    void withoutAPromptTheCallerIsToldToAsk() {
        const Parsed parsed = parse({"--user", "root"});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QVERIFY(parsed.options->needsPassword);
        QCOMPARE(parsed.options->client.username, std::string("root"));
        QVERIFY(parsed.options->client.password.empty());
    }

    void givenPasswordsAreNotAskedFor_data() {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("environmentPassword");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        // As etcdctl 3.4: with --password (or ETCDCTL_PASSWORD) --user is the name whole.
        QTest::newRow("--password") << QStringList{"--user", "root", "--password", "p:w"} << ""
                                    << "root"
                                    << "p:w";
        QTest::newRow("ETCDCTL_PASSWORD") << QStringList{"--user", "root"} << "envpw"
                                          << "root"
                                          << "envpw";
        QTest::newRow("flag wins over variable")
            << QStringList{"--user", "root", "--password=flagpw"} << "envpw"
            << "root"
            << "flagpw";
        QTest::newRow("--password makes the colon part of the name")
            << QStringList{"--user", "ro:ot", "--password", "pw"} << ""
            << "ro:ot"
            << "pw";
        QTest::newRow("name:password") << QStringList{"--user", "root:pw"} << ""
                                       << "root"
                                       << "pw";
        QTest::newRow("empty --password falls back to name:password")
            << QStringList{"--user", "root:pw", "--password="} << ""
            << "root"
            << "pw";
        QTest::newRow("empty password after the colon") << QStringList{"--user", "root:"} << ""
                                                        << "root"
                                                        << "";
    }
    void givenPasswordsAreNotAskedFor() {
        QFETCH(QStringList, flags);
        QFETCH(QString, environmentPassword);
        QFETCH(QString, user);
        QFETCH(QString, password);
        FakePrompt prompt{"asked", {}};
        QList<QPair<QString, QString>> environment;
        if (!environmentPassword.isEmpty())
            environment.append({"ETCDCTL_PASSWORD", environmentPassword});
        const Parsed parsed = parse(flags, environment, prompt.function());
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QVERIFY(prompt.askedFor.isEmpty());
        QCOMPARE(QString::fromStdString(parsed.options->client.username), user);
        QCOMPARE(QString::fromStdString(parsed.options->client.password), password);
    }

    void passwordWithoutUser() {
        // etcdctl ignores ETCDCTL_PASSWORD without a user: a shell set up for it still works.
        Parsed parsed = parse({}, {{"ETCDCTL_PASSWORD", "pw"}});
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QVERIFY(parsed.options->client.username.empty());
        QVERIFY(parsed.options->client.password.empty());
        // The flag alone is a mistake worth saying.
        parsed = parse({"--password", "pw"});
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains("--password") && parsed.error.contains("--user"),
                 qPrintable(parsed.error));
    }

    void emptyUserNameIsRejected() {
        FakePrompt prompt{"asked", {}};
        const Parsed parsed = parse({"--user", ":secret"}, {}, prompt.function());
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.startsWith("--user") && parsed.error.contains("empty"),
                 qPrintable(parsed.error));
    }

    void badInputIsReportedBeforeThePasswordIsAsked() {
        FakePrompt prompt{"asked", {}};
        const Parsed parsed =
            parse({"--user", "root", "--dial-timeout", "soon"}, {}, prompt.function());
        QVERIFY(!parsed.options);
        QVERIFY(prompt.askedFor.isEmpty());
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
        QTest::newRow("bare zero, as Go takes it") << "0" << qint64(0);
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

LOCKSCOPE_QTEST_GUILESS_MAIN(ConnectionOptionsTest)
#include "connection_options_test.moc"
