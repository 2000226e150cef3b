// Which prefix a real cluster opens on: asked on the first connection (not for the sandbox,
// not when --prefix gave one), then the one last used there; and a prefix with more than
// 10,000 keys that are not locks is said so before they are loaded, with the offer to narrow.
#include "app/core/lock_watch.h"
#include "app/core/prefix_check.h"
#include "app/gui/main_window.h"
#include "main_window_probes.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "widgets/lock_prefix_dialog.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>

using namespace lockscope;
using namespace lockscope::test;

namespace {

constexpr int UiTimeoutMs = 15000;

bool watching(MainWindow& window, const std::string& prefix) {
    return window.lockWatch() && window.lockWatch()->hasPrefix() &&
           window.lockWatch()->prefix() == prefix && window.lockWatch()->live();
}

QComboBox* prefixField(LockPrefixDialog* dialog) {
    return dialog->findChild<QComboBox*>("lockPrefixBox");
}

QPushButton* button(LockPrefixDialog* dialog, const char* name) {
    return dialog->findChild<QPushButton*>(name);
}

} // namespace

class LockPrefixPromptIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void init() { QSettings().clear(); }

    void cleanupTestCase() { etcd_.stop(); }

    // A profile's name is only shown: one named "sandbox" (the word the sandbox is shown by) is
    // asked and remembered as any other.
    void theFirstConnectionAsksAndTheNextOpensOnTheAnswer_data() {
        QTest::addColumn<QString>("profile");
        QTest::newRow("given on the command line") << QString();
        QTest::newRow("a profile named sandbox") << QString("sandbox");
    }
    void theFirstConnectionAsksAndTheNextOpensOnTheAnswer() {
        QFETCH(QString, profile);
        QSettings().setValue("locks/recentPrefixes", QStringList{"/jobs/locks/", "/"});
        {
            MainWindow window;
            window.connectTo(etcd_.cluster().clientOptions(), profile);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTRY_VERIFY_WITH_TIMEOUT(window.prefixDialog() && window.prefixDialog()->isVisible(),
                                     UiTimeoutMs);
            LockPrefixDialog* dialog = window.prefixDialog();
            QVERIFY(
                dialog->message().contains(QString::fromStdString(etcd_.cluster().endpoint(0))));
            // The prefixes used lately are offered; none is filled in, and nothing is watched
            // meanwhile (not "/", the whole keyspace).
            QComboBox* field = prefixField(dialog);
            QCOMPARE(field->count(), 2);
            QCOMPARE(field->itemText(0), QString("/jobs/locks/"));
            QCOMPARE(field->currentText(), QString());
            QVERIFY(!button(dialog, "watchPrefixButton")->isEnabled());
            QVERIFY(!window.lockWatch()->hasPrefix());
            QVERIFY(labelText(window, "lockWatchStatus").contains("no lock prefix chosen"));
            QVERIFY(saveScreenshot(window, "lock_prefix_prompt_window.png"));
            QVERIFY(saveScreenshot(*dialog, "lock_prefix_prompt.png"));

            // Answered as a user does: typed into the field, then Enter (once, Enter there
            // pressed Cancel, which had taken the default while Watch was disabled).
            field->setFocus();
            QTest::keyClicks(field->lineEdit(), "/prompt-test/");
            QTest::keyClick(field->lineEdit(), Qt::Key_Return);
            QTRY_VERIFY_WITH_TIMEOUT(watching(window, "/prompt-test/"), UiTimeoutMs);
            QVERIFY(!window.prefixDialog());
        }
        // The same cluster again: its prefix, without asking.
        MainWindow again;
        again.connectTo(etcd_.cluster().clientOptions(), profile);
        QTRY_VERIFY_WITH_TIMEOUT(watching(again, "/prompt-test/"), UiTimeoutMs);
        QVERIFY(!again.prefixDialog());
    }

    // lockscope --prefix: chosen before the connection, so nothing asks.
    void aPrefixGivenBeforeConnectingIsNotAskedFor() {
        MainWindow window;
        window.setPrefix("/given/");
        window.connectTo(etcd_.cluster().clientOptions());
        QTRY_VERIFY_WITH_TIMEOUT(watching(window, "/given/"), UiTimeoutMs);
        QVERIFY(!window.prefixDialog());
    }

    void aPrefixOfManyKeysThatAreNotLocksIsSaidSoBeforeLoading() {
        const int keys = PrefixCheck::MaxOtherKeys + 100;
        QVERIFY(putKeys(etcd_.client(), "/broad/config/item-", keys));
        QSettings().setValue("locks/recentPrefixes", QStringList{"/broad/"});
        MainWindow window;
        window.setPrefix("/broad/");
        window.connectTo(etcd_.cluster().clientOptions());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.prefixDialog() && window.prefixDialog()->isVisible(),
                                 UiTimeoutMs);
        LockPrefixDialog* warning = window.prefixDialog();
        QVERIFY2(warning->message().startsWith("/broad/ holds"), qPrintable(warning->message()));
        QVERIFY2(warning->message().contains("not lock keys"), qPrintable(warning->message()));
        QVERIFY(!window.lockWatch()->hasPrefix()); // not loaded
        QVERIFY(saveScreenshot(*warning, "broad_prefix_warning.png"));

        // The same prefix cannot be "narrowed"; a longer one is watched, after its own check.
        QComboBox* field = prefixField(warning);
        QCOMPARE(field->currentText(), QString("/broad/"));
        QVERIFY(!button(warning, "watchPrefixButton")->isEnabled());
        field->setEditText("/broad/locks/");
        QVERIFY(button(warning, "watchPrefixButton")->isEnabled());
        button(warning, "watchPrefixButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(watching(window, "/broad/locks/"), UiTimeoutMs);
        QVERIFY(!window.prefixDialog());

        // Asked again and cancelled: the watch and the field stay on the narrower prefix.
        window.setPrefix("/broad/");
        QTRY_VERIFY_WITH_TIMEOUT(window.prefixDialog() && window.prefixDialog()->isVisible(),
                                 UiTimeoutMs);
        window.prefixDialog()->reject();
        QTRY_COMPARE_WITH_TIMEOUT(window.findChild<QComboBox*>("prefixBox")->currentText(),
                                  QString("/broad/locks/"), UiTimeoutMs);
        QVERIFY(watching(window, "/broad/locks/"));
        QTRY_VERIFY_WITH_TIMEOUT(labelText(window, "lockWatchStatus") == "live", UiTimeoutMs);

        // Asked again, Load all anyway watches it all.
        window.setPrefix("/broad/");
        QTRY_VERIFY_WITH_TIMEOUT(window.prefixDialog() && window.prefixDialog()->isVisible(),
                                 UiTimeoutMs);
        QCOMPARE(window.lockWatch()->prefix(), std::string("/broad/locks/"));
        button(window.prefixDialog(), "loadAnywayButton")->click();
        QTRY_VERIFY_WITH_TIMEOUT(watching(window, "/broad/"), UiTimeoutMs);
        QVERIFY(!window.prefixDialog());
    }

private:
    LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(LockPrefixPromptIntegrationTest)
#include "lock_prefix_prompt_integration_test.moc"
