#include "app/core/connection_profiles.h"
#include "support/qtest_registry.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace lockscope;

class ConnectionProfilesTest : public QObject {
    Q_OBJECT

private slots:
    void profilesSurviveASaveAndLoadWithoutPasswords() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath("profiles.ini"), QSettings::IniFormat);
        const QList<ConnectionProfile> profiles = {
            {"prod", "10.0.0.5:2379,10.0.0.6:2379", "/etc/ca.pem", "/etc/c.pem", "/etc/k.pem",
             "ops", true},
            {"local", "127.0.0.1:2379", "", "", "", "", false}};
        saveProfiles(settings, profiles);
        settings.sync();
        QSettings again(dir.filePath("profiles.ini"), QSettings::IniFormat);
        QCOMPARE(loadProfiles(again), profiles);
        QVERIFY(!QFile(dir.filePath("profiles.ini")).readAll().contains("password"));
    }

    void aProfileBecomesTheSameOptionsAsTheCommandLine() {
        QString error;
        const auto options = toConnectionOptions(
            {"x", "https://10.0.0.5:2379, 10.0.0.6:2379", "", "", "", "ops", false}, error);
        QVERIFY2(options.has_value(), qPrintable(error));
        QCOMPARE(options->client.endpoints.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(options->client.username), QString("ops"));
        QVERIFY(options->client.password.empty());
        QVERIFY(options->needsPassword); // asked when connecting, never kept in the profile

        const auto anonymous = toConnectionOptions({"y", "h:1", "", "", "", "", false}, error);
        QVERIFY2(anonymous.has_value(), qPrintable(error));
        QVERIFY(!anonymous->needsPassword);
    }

    void badProfilesSayWhatIsWrong() {
        QString error;
        QVERIFY(!toConnectionOptions({"x", "", "", "", "", "", false}, error));
        QVERIFY(error.contains("endpoint"));
        QVERIFY(!toConnectionOptions({"x", "ftp://h:1", "", "", "", "", false}, error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!toConnectionOptions({"x", "h:1", "/no/such/ca.pem", "", "", "", false}, error));
        QVERIFY2(error.contains("/no/such/ca.pem"), qPrintable(error));
        // A password typed into the user field would end up in the saved profile.
        QVERIFY(!toConnectionOptions({"x", "h:1", "", "", "", "ops:secret", false}, error));
        QVERIFY2(error.contains("password"), qPrintable(error));
    }

    void theCommandLineConnectionIsTheDialogsStartingPoint() {
        etcd::ClientOptions options;
        options.endpoints = {"a:1", "b:2"};
        options.username = std::string("user");
        const auto profile = profileOf(options);
        QCOMPARE(profile.endpoints, QString("a:1,b:2"));
        QCOMPARE(profile.user, QString("user"));
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(ConnectionProfilesTest)
#include "connection_profiles_test.moc"
