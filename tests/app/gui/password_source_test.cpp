// PasswordSource and PasswordKeyring with a real keyring: run by with_keyring.sh in a private
// D-Bus session with a GNOME keyring of its own. No etcd here: the cluster's answers are the
// calls a window makes (accepted, refused).
#include "app/gui/password_keyring.h"
#include "app/gui/password_source.h"
#include "main_window_probes.h"
#include "password_probes.h"
#include "support/qtest_registry.h"
#include "widgets/password_dialog.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace lockscope;
using namespace lockscope::test;

namespace {

etcd::ClientOptions optionsFor(const std::string& user) {
    etcd::ClientOptions options;
    options.endpoints = {"127.0.0.1:2379", "127.0.0.2:2379"};
    options.username = user;
    return options;
}

} // namespace

class PasswordSourceTest : public QObject {
    Q_OBJECT
private slots:
    void theKeyringKeepsAndForgetsAPassword() {
        PasswordKeyring keyring;
        const QString account = PasswordKeyring::accountOf(optionsFor("keeper"));
        QCOMPARE(account, QString("keeper@127.0.0.1:2379,127.0.0.2:2379"));
        QCOMPARE(writeKeyring(keyring, account, "pa:ss"), QString());
        KeyringAnswer answer = readKeyring(keyring, account);
        QVERIFY2(answer.problem.isEmpty(), qPrintable(answer.problem));
        QCOMPARE(answer.password, std::optional<QString>("pa:ss"));

        QCOMPARE(removeFromKeyring(keyring, account), QString());
        answer = readKeyring(keyring, account);
        QVERIFY2(answer.problem.isEmpty(), qPrintable(answer.problem));
        QVERIFY(!answer.password); // gone, and a missing entry is not a problem
    }

    void aStoredPasswordIsUsedWithoutAsking() {
        QWidget window;
        PasswordSource source(&window);
        const etcd::ClientOptions options = optionsFor("stored");
        QCOMPARE(writeKeyring(source.keyring(), PasswordKeyring::accountOf(options), "kept"),
                 QString());
        QSignalSpy ready(&source, &PasswordSource::ready);
        source.find(options);
        QVERIFY(ready.wait(10000));
        QCOMPARE(ready.first().first().value<etcd::ClientOptions>().password, "kept");
        QVERIFY(!shownPasswordDialog(window));
    }

    void anAskedPasswordIsRememberedOnlyOnceTheClusterAcceptsIt() {
        QWidget window;
        PasswordSource source(&window);
        const etcd::ClientOptions options = optionsFor("asked");
        QSignalSpy ready(&source, &PasswordSource::ready);
        source.find(options);
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(window), 10000);
        PasswordDialog* dialog = shownPasswordDialog(window);
        dialog->findChild<QLineEdit*>()->setText("typed");
        dialog->findChild<QCheckBox*>()->setChecked(true);
        buttonNamed(*dialog, "Connect")->click();
        QCOMPARE(ready.size(), 1);
        const auto withPassword = ready.first().first().value<etcd::ClientOptions>();
        QCOMPARE(withPassword.password, "typed");

        const QString account = PasswordKeyring::accountOf(options);
        QVERIFY(!readKeyring(source.keyring(), account).password); // not before it worked
        source.accepted(withPassword);
        QTRY_COMPARE_WITH_TIMEOUT(readKeyring(source.keyring(), account).password,
                                  std::optional<QString>("typed"), 10000);
    }

    void withoutTheBoxTickedNothingIsKept() {
        QWidget window;
        PasswordSource source(&window);
        const etcd::ClientOptions options = optionsFor("unticked");
        QSignalSpy ready(&source, &PasswordSource::ready);
        source.find(options);
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(window), 10000);
        shownPasswordDialog(window)->findChild<QLineEdit*>()->setText("typed");
        buttonNamed(*shownPasswordDialog(window), "Connect")->click();
        QCOMPARE(ready.size(), 1);
        source.accepted(ready.first().first().value<etcd::ClientOptions>());
        QTest::qWait(500); // a write, had one started, would have landed
        QVERIFY(!readKeyring(source.keyring(), PasswordKeyring::accountOf(options)).password);
    }

    void aRefusedStoredPasswordIsForgottenAndAskedAgain() {
        QWidget window;
        PasswordSource source(&window);
        const etcd::ClientOptions options = optionsFor("refused");
        const QString account = PasswordKeyring::accountOf(options);
        QCOMPARE(writeKeyring(source.keyring(), account, "stale"), QString());
        QSignalSpy ready(&source, &PasswordSource::ready);
        source.find(options);
        QVERIFY(ready.wait(10000));
        const auto stale = ready.first().first().value<etcd::ClientOptions>();
        QCOMPARE(stale.password, "stale");

        source.refused(stale, "Authentication failed for user refused");
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(window), 10000);
        auto* problem = shownPasswordDialog(window)->findChild<QLabel*>("passwordProblem");
        QVERIFY(problem && problem->text() == "Authentication failed for user refused");
        QVERIFY(!readKeyring(source.keyring(), account).password); // forgotten first
    }

    void cancellingTheDialogIsReported() {
        QWidget window;
        PasswordSource source(&window);
        QSignalSpy ready(&source, &PasswordSource::ready);
        QSignalSpy cancelled(&source, &PasswordSource::cancelled);
        source.find(optionsFor("cancelling"));
        QTRY_VERIFY_WITH_TIMEOUT(shownPasswordDialog(window), 10000);
        buttonNamed(*shownPasswordDialog(window), "Cancel")->click();
        QCOMPARE(cancelled.size(), 1);
        QCOMPARE(ready.size(), 0);
    }
};

LOCKSCOPE_QTEST_MAIN(PasswordSourceTest)
#include "password_source_test.moc"
