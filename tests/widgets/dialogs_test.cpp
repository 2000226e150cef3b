#include "support/qtest_registry.h"
#include "widgets/acquire_dialog.h"
#include "widgets/connection_dialog.h"
#include "widgets/password_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace lockscope;

class DialogsTest : public QObject {
    Q_OBJECT

    // Stand-ins for the app's rules (the real ones are tested with lockscopectl's).
    static AcquireDialog::Checks rules() {
        return {
            [](const QString& name) {
                return name.contains("\\q") ? QString("bad escape") : QString();
            },
            [](qint64 ttl) { return ttl > 9'000'000'000 ? QString("above the limit") : QString(); },
            [](qint64 ttl) { return ttl > 86'400 ? QString("long") : QString(); }};
    }
    static QString problemText(const AcquireDialog& dialog) {
        auto* label = dialog.findChild<QLabel*>("acquireProblem");
        return label && label->isVisible() ? label->text() : QString();
    }
    // Answers the next confirmation box with `button`, keeping its text in `asked`.
    void answerConfirmation(QMessageBox::StandardButton button, QString& asked) {
        asked.clear();
        QTimer::singleShot(0, this, [button, &asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box && box->objectName() == "longTtlConfirmation");
            asked = box->text();
            box->button(button)->click();
        });
    }

private slots:
    void acquireDialogDefaultsToEtcdctlsTtlAndNeedsAName() {
        AcquireDialog dialog("");
        QCOMPARE(dialog.ttlSeconds(), 10);
        QVERIFY(!dialog.tryOnly());
        auto* acquire = findButton(dialog, "Acquire");
        QVERIFY(acquire && !acquire->isEnabled());
        dialog.findChild<QLineEdit*>("lockName")->setText("  ");
        QVERIFY(!acquire->isEnabled()); // blank
        dialog.findChild<QLineEdit*>("lockName")->setText(" /locks/deploy ");
        QVERIFY(acquire->isEnabled());
        QCOMPARE(dialog.lockName(), QString(" /locks/deploy ")); // exact: etcdctl's lock too
        dialog.setTtlSeconds(9'000'000'001); // beyond a QSpinBox, so the checks can name it
        QCOMPARE(dialog.ttlSeconds(), qint64{9'000'000'001});
    }

    void acquireRefusesWhatTheChecksRefuseAndSaysWhy() {
        AcquireDialog dialog("/locks/a\\q");
        dialog.setChecks(rules());
        dialog.show();
        findButton(dialog, "Acquire")->click();
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.result() != QDialog::Accepted);
        QCOMPARE(problemText(dialog), QString("bad escape"));

        dialog.findChild<QLineEdit*>("lockName")->setText("/locks/a");
        dialog.setTtlSeconds(9'000'000'001);
        findButton(dialog, "Acquire")->click();
        QVERIFY(dialog.isVisible());
        QCOMPARE(problemText(dialog), QString("above the limit"));

        dialog.setTtlSeconds(30);
        findButton(dialog, "Acquire")->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(!dialog.findChild<QLabel*>("acquireProblem")->isVisible());
    }

    // A space at either end is part of the name (etcdctl lock "/locks/a " is not "/locks/a"):
    // said once, with both spellings, and taken as typed on the second press.
    void aNameWithSpacesAtItsEndsIsTakenAsTypedOnlyOnTheSecondPress() {
        AcquireDialog dialog("/locks/trail  ");
        dialog.setChecks(rules());
        dialog.show();
        findButton(dialog, "Acquire")->click();
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.result() != QDialog::Accepted);
        const QString said = problemText(dialog);
        QVERIFY2(said.contains("\"/locks/trail  \"") && said.contains("\"/locks/trail\"") &&
                     said.contains("Acquire again"),
                 qPrintable(said));
        findButton(dialog, "Acquire")->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.lockName(), QString("/locks/trail  "));

        AcquireDialog edited("/locks/trail ");
        edited.setChecks(rules());
        edited.show();
        findButton(edited, "Acquire")->click();
        edited.findChild<QLineEdit*>("lockName")->setText(" /locks/trail");
        findButton(edited, "Acquire")->click(); // another spaced name: asked about anew
        QVERIFY(edited.result() != QDialog::Accepted);
        QVERIFY(problemText(edited).contains("\" /locks/trail\""));
    }

    void aTtlWithAWarningIsAcquiredOnlyAfterConfirming() {
        AcquireDialog dialog("/locks/a");
        dialog.setChecks(rules());
        dialog.setTtlSeconds(100'000);
        dialog.show();
        QString asked;
        answerConfirmation(QMessageBox::Cancel, asked);
        findButton(dialog, "Acquire")->click();
        QCOMPARE(asked, QString("long.\n\nAcquire with this TTL anyway?"));
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.result() != QDialog::Accepted);

        answerConfirmation(QMessageBox::Yes, asked);
        findButton(dialog, "Acquire")->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));

        AcquireDialog shortTtl("/locks/a"); // a day or less asks nothing
        shortTtl.setChecks(rules());
        shortTtl.setTtlSeconds(86'400);
        shortTtl.show();
        findButton(shortTtl, "Acquire")->click();
        QCOMPARE(shortTtl.result(), int(QDialog::Accepted));
    }

    void connectionDialogStartsFromTheFirstSavedProfile() {
        const ConnectionProfile prod{"prod", "10.0.0.5:2379", "/etc/ca.pem", "", "", "ops", true};
        ConnectionDialog dialog({prod}, nullptr);
        QCOMPARE(dialog.profile(), prod);
        // The password is asked when connecting: the profile dialog has no field for it.
        for (auto* field : dialog.findChildren<QLineEdit*>())
            QVERIFY(field->echoMode() == QLineEdit::Normal);
    }

    void savingAndDeletingEditTheProfileList() {
        ConnectionDialog dialog({}, nullptr);
        QSignalSpy changed(&dialog, &ConnectionDialog::profilesChanged);
        dialog.setProfile({"local", "127.0.0.1:2379", "", "", "", "", false});
        findButton(dialog, "Save")->click();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(dialog.profiles().size(), 1);
        dialog.setProfile({"local", "127.0.0.1:2380", "", "", "", "", false});
        findButton(dialog, "Save")->click(); // same name: replaced, not added
        QCOMPARE(dialog.profiles().size(), 1);
        QCOMPARE(dialog.profiles()[0].endpoints, QString("127.0.0.1:2380"));
        findButton(dialog, "Delete")->click();
        QCOMPARE(dialog.profiles().size(), 0);
        QCOMPARE(changed.size(), 3);
    }

    void theValidatorKeepsTheDialogOpenAndSaysWhy() {
        ConnectionDialog dialog({}, [](const ConnectionProfile& p) {
            return p.endpoints.isEmpty() ? QString("give at least one endpoint") : QString();
        });
        dialog.show();
        findButton(dialog, "Connect")->click();
        QVERIFY(dialog.isVisible());
        QVERIFY(dialog.result() != QDialog::Accepted);
        bool said = false;
        for (auto* label : dialog.findChildren<QLabel*>())
            said = said || (label->isVisible() && label->text() == "give at least one endpoint");
        QVERIFY(said);
        dialog.setProfile({"", "127.0.0.1:2379", "", "", "", "", false});
        findButton(dialog, "Connect")->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    void aProfileTheValidatorRefusesIsNotSaved() {
        ConnectionDialog dialog({}, [](const ConnectionProfile& p) {
            return p.user.contains(':') ? QString("user name alone") : QString();
        });
        QSignalSpy changed(&dialog, &ConnectionDialog::profilesChanged);
        dialog.setProfile({"p", "127.0.0.1:2379", "", "", "", "ops:secret", false});
        findButton(dialog, "Save")->click();
        QCOMPARE(changed.size(), 0);
        QVERIFY(dialog.profiles().isEmpty());
    }

    void passwordDialogHidesThePasswordAndRemembersOnlyWhenAsked() {
        PasswordDialog dialog("alice", "127.0.0.1:2379", QString());
        dialog.show();
        auto* field = dialog.findChild<QLineEdit*>();
        QVERIFY(field && field->echoMode() == QLineEdit::Password);
        QTest::keyClicks(field, "s3cr:et");
        QCOMPARE(dialog.password(), QString("s3cr:et"));
        auto* remember = dialog.findChild<QCheckBox*>();
        QVERIFY(remember && remember->text().contains("keyring"));
        QVERIFY(!dialog.remember()); // kept only when the user asks
        remember->setChecked(true);
        QVERIFY(dialog.remember());
        QVERIFY(!dialog.findChild<QLabel*>("passwordProblem"));
        findButton(dialog, "Connect")->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }

    void passwordDialogSaysWhyItAsksAgainAndWhenItCannotRemember() {
        PasswordDialog dialog("alice", "127.0.0.1:2379", "Authentication failed for user alice");
        auto* problem = dialog.findChild<QLabel*>("passwordProblem");
        QVERIFY(problem && problem->text() == "Authentication failed for user alice");
        auto* remember = dialog.findChild<QCheckBox*>();
        remember->setChecked(true);
        dialog.disableRemember("No keyring to remember it in: no backend");
        QVERIFY(!remember->isEnabled() && !remember->isChecked());
        QCOMPARE(remember->toolTip(), QString("No keyring to remember it in: no backend"));
        QVERIFY(!dialog.remember());
        findButton(dialog, "Cancel")->click();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
    }

private:
    static QPushButton* findButton(QWidget& dialog, const QString& text) {
        for (auto* button : dialog.findChildren<QPushButton*>())
            if (button->text() == text)
                return button;
        return nullptr;
    }
};

LOCKSCOPE_QTEST_MAIN(DialogsTest)
#include "dialogs_test.moc"
