// The window against a real etcd with authentication on, and a real keyring (with_keyring.sh):
// a refused password is said as such, never retried, and asked again; a kept one is used.
// Saves screenshots of the password dialog and of the problems area (see main_window_probes.h).
#include "app/core/cluster_session.h"
#include "app/core/connection_options.h"
#include "app/core/lock_actions.h"
#include "app/gui/main_window.h"
#include "app/gui/password_keyring.h"
#include "app/gui/password_source.h"
#include "main_window_probes.h"
#include "password_probes.h"
#include "process/local_cluster.h"
#include "support/etcd_auth.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "widgets/password_dialog.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <memory>

using namespace lockscope;
using lockscope::test::authPassword;
using lockscope::test::authUser;
using lockscope::test::buttonNamed;
using lockscope::test::newestProblem;
using lockscope::test::problemListed;
using lockscope::test::saveScreenshot;
using lockscope::test::shownPasswordDialog;

namespace {

QLabel* label(MainWindow& window, const char* name) {
    return window.findChild<QLabel*>(name);
}

} // namespace

class AuthenticationIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // QSettings away from the user's own
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
        const std::string problem =
            lockscope::test::enableAuthentication(etcd_.cluster().endpointList());
        QVERIFY2(problem.empty(), problem.c_str());
    }

    void cleanupTestCase() { etcd_.stop(); }

    void init() {
        window_ = std::make_unique<MainWindow>();
        window_->show();
        // Each test starts with nothing kept for the user.
        QCOMPARE(lockscope::test::removeFromKeyring(keyring(), account()), QString());
    }

    void cleanup() { window_.reset(); }

    void aRefusedPasswordIsSaidAsSuchAndNotRetried() {
        window_->openConnection(connectionWithPassword("wrong"));
        QTRY_VERIFY_WITH_TIMEOUT(!newestProblem(*window_).isEmpty(), 15000);
        const QString banner = newestProblem(*window_);
        const QString expected = "Authentication failed for user " +
                                 QString::fromStdString(authUser) +
                                 ": etcd refused the user name or password.";
        QVERIFY2(banner.startsWith(expected), qPrintable(banner));
        QVERIFY2(banner.contains("File → Connect"), qPrintable(banner));
        QVERIFY2(label(*window_, "connectionLabel")->text().contains("Authentication failed"),
                 qPrintable(label(*window_, "connectionLabel")->text()));

        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(*window_), 10000);
        PasswordDialog* dialog = shownPasswordDialog(*window_);
        auto* problem = dialog->findChild<QLabel*>("passwordProblem");
        QVERIFY(problem && problem->text() == banner);
        QVERIFY(saveScreenshot(*dialog, "password-dialog-after-refusal.png"));
        QVERIFY(saveScreenshot(*window_, "authentication-failed-banner.png"));

        // Nothing asks etcd again while the user decides: no session, no new Authenticate.
        QVERIFY(window_->findChildren<ClusterSession*>().isEmpty());
        QVERIFY2(!label(*window_, "lockWatchStatus")->text().contains("reconnecting"),
                 qPrintable(label(*window_, "lockWatchStatus")->text()));
        const int attempts = authenticateCalls();
        QVERIFY(attempts >= 1);
        QTest::qWait(3 * MainWindow::RefreshIntervalMs);
        QCOMPARE(authenticateCalls(), attempts);

        // The right password, typed again, connects.
        dialog->findChild<QLineEdit*>()->setText(QString::fromStdString(authPassword));
        buttonNamed(*dialog, "Connect")->click();
        QTRY_VERIFY_WITH_TIMEOUT(label(*window_, "connectionLabel")->text().contains("Connected"),
                                 15000);
        // Said until the user dismisses it, not hidden by the success that followed.
        QCOMPARE(newestProblem(*window_), banner);
    }

    void cancellingTheDialogLeavesItStopped() {
        window_->openConnection(connectionWithPassword("wrong"));
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(*window_), 15000);
        buttonNamed(*shownPasswordDialog(*window_), "Cancel")->click();
        const int attempts = authenticateCalls();
        QTest::qWait(3 * MainWindow::RefreshIntervalMs);
        QCOMPARE(authenticateCalls(), attempts);
        QVERIFY(!shownPasswordDialog(*window_));
        QVERIFY(newestProblem(*window_).contains("File → Connect"));
        QVERIFY(label(*window_, "connectionLabel")->text().contains("Authentication failed"));
    }

    void aRememberedPasswordIsKeptOnceItWorksAndUsedNextTime() {
        window_->openConnection(connectionNeedingPassword());
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(*window_), 10000);
        PasswordDialog* dialog = shownPasswordDialog(*window_);
        QVERIFY(!dialog->findChild<QLabel*>("passwordProblem")); // first time: no reproach
        dialog->findChild<QLineEdit*>()->setText(QString::fromStdString(authPassword));
        dialog->findChild<QCheckBox*>()->setChecked(true);
        buttonNamed(*dialog, "Connect")->click();
        QTRY_VERIFY_WITH_TIMEOUT(label(*window_, "connectionLabel")->text().contains("Connected"),
                                 15000);
        QTRY_COMPARE_WITH_TIMEOUT(
            storedPassword(), std::optional<QString>(QString::fromStdString(authPassword)), 10000);

        // A new window finds it in the keyring and does not ask.
        window_ = std::make_unique<MainWindow>();
        window_->show();
        window_->openConnection(connectionNeedingPassword());
        QTRY_VERIFY_WITH_TIMEOUT(label(*window_, "connectionLabel")->text().contains("Connected"),
                                 15000);
        QVERIFY(!shownPasswordDialog(*window_));
    }

    void aRefusedKeptPasswordIsForgottenAndAskedAgain() {
        QCOMPARE(lockscope::test::writeKeyring(keyring(), account(), "changed-since"), QString());
        window_->openConnection(connectionNeedingPassword());
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(*window_), 15000);
        QVERIFY(shownPasswordDialog(*window_)->findChild<QLabel*>("passwordProblem"));
        QVERIFY(label(*window_, "connectionLabel")->text().contains("Authentication failed"));
        QCOMPARE(storedPassword(), std::nullopt);
    }

    // Beyond the user's roles: the refusal is a problem, kept until dismissed, not a status
    // bar message gone in seconds.
    void anAcquireEtcdRefusesIsAProblem() {
        LockActions* actions = connectedActions();
        QVERIFY(actions);
        actions->acquire("/bob/job", 10, false);
        QTRY_VERIFY_WITH_TIMEOUT(problemListed(*window_, "Could not acquire /bob/job: "), 15000);
        QVERIFY2(newestProblem(*window_).contains("permission denied"),
                 qPrintable(newestProblem(*window_)));
    }

    // The password changes (here: the user made anew, then etcd restarts and forgets the
    // tokens it gave) while we hold a lock. The window stops and asks for the password; the
    // lock it lets go of cannot be released with the refused credentials, and the problems say
    // so, naming it, instead of the lock silently vanishing. Last: it changes the user, and
    // puts it back.
    void aLockLetGoOfWithRefusedCredentialsIsAProblem() {
        LockActions* actions = connectedActions();
        QVERIFY(actions);
        actions->acquire("/alice/held", 30, false);
        QTRY_VERIFY_WITH_TIMEOUT(actions->ownLock("/alice/held") &&
                                     actions->ownLock("/alice/held")->state == OwnLock::State::Held,
                                 15000);

        QVERIFY(asRoot({"user", "delete", authUser}));
        QVERIFY(asRoot({"user", "add", authUser + ":changed"}));
        // etcd keeps a token until it restarts (or it times out): after a restart, signing in
        // again is refused.
        etcd_.cluster().stopMember(0);
        QVERIFY(etcd_.cluster().restartMember(0).ok());
        QVERIFY(etcd_.cluster().waitReady().ok());
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(*window_), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(
            problemListed(*window_, "/alice/held was let go of without etcd's word"), 15000);

        buttonNamed(*shownPasswordDialog(*window_), "Cancel")->click();
        QVERIFY(asRoot({"user", "delete", authUser}));
        QVERIFY(asRoot({"user", "add", authUser + ":" + authPassword}));
        QVERIFY(asRoot({"user", "grant-role", authUser, authUser + "-role"}));
    }

private:
    // Connected with the right password: the window's LockActions, or null.
    LockActions* connectedActions() {
        window_->openConnection(connectionWithPassword(authPassword));
        const bool connected = QTest::qWaitFor(
            [&] { return label(*window_, "connectionLabel")->text().contains("Connected"); },
            15000);
        return connected ? window_->findChild<LockActions*>() : nullptr;
    }
    bool asRoot(std::vector<std::string> args) const {
        args.push_back("--user=root:rootpw");
        const auto result = lockscope::test::etcdctl(etcd_.cluster().endpointList(), args);
        if (result.exitCode != 0)
            qWarning("etcdctl: %s", result.output.c_str());
        return result.exitCode == 0;
    }
    ConnectionOptions connectionNeedingPassword() const {
        ConnectionOptions connection;
        connection.client.endpoints = etcd_.cluster().endpoints();
        connection.client.username = authUser;
        connection.needsPassword = true;
        return connection;
    }
    ConnectionOptions connectionWithPassword(const std::string& password) const {
        ConnectionOptions connection = connectionNeedingPassword();
        connection.client.password = password;
        connection.needsPassword = false; // as --user name:password gives it
        return connection;
    }
    PasswordKeyring& keyring() { return window_->findChild<PasswordSource*>()->keyring(); }
    QString account() const {
        return PasswordKeyring::accountOf(connectionNeedingPassword().client);
    }
    std::optional<QString> storedPassword() {
        return lockscope::test::readKeyring(keyring(), account()).password;
    }

    // How many Authenticate calls etcd has served, from its own metrics.
    int authenticateCalls() const {
        QProcess curl;
        curl.start("curl", {"-sf", QString::fromStdString("http://" + etcd_.cluster().endpoint(0) +
                                                          "/metrics")});
        if (!curl.waitForFinished(10000))
            return -1;
        const QRegularExpression line(
            R"(^grpc_server_started_total\{grpc_method="Authenticate"[^}]*\} (\d+)$)",
            QRegularExpression::MultilineOption);
        const auto match = line.match(QString::fromUtf8(curl.readAllStandardOutput()));
        return match.hasMatch() ? match.captured(1).toInt() : -1;
    }

    test::LocalEtcd etcd_;
    std::unique_ptr<MainWindow> window_;
};

LOCKSCOPE_QTEST_MAIN(AuthenticationIntegrationTest)
#include "authentication_integration_test.moc"
