// The desktop app end to end, offscreen, against a real etcd (etcd::LocalCluster) with real
// `etcdctl lock` processes contending: the lock actions driven through the window's actions and
// its modal dialogs, read-only mode, and the sandbox opening on the contention lab. Saves
// screenshots to $LOCKSCOPE_ARTIFACTS_DIR (or the test's build directory).
#include "app/core/event_log_model.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/sandbox.h"
#include "app/gui/main_window.h"
#include "app/gui/timeline_page.h"
#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "main_window_probes.h"
#include "process/child_process.h"
#include "support/child_processes.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "when_modal.h"
#include "widgets/acquire_dialog.h"
#include "widgets/holder_card.h"
#include "widgets/latency_plot.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <csignal>
#include <functional>
#include <memory>
#include <unistd.h>

using namespace lockscope;
using lockscope::test::buttonNamed;
using lockscope::test::eventCount;
using lockscope::test::eventLogHas;
using lockscope::test::restPointer;
using lockscope::test::saveScreenshot;
using lockscope::test::selectLock;
using lockscope::test::waitersShown;
using lockscope::test::whenModal;

namespace {

constexpr int EtcdctlTimeoutMs = 15000;
constexpr int UiTimeoutMs = 10000;

QAction* action(MainWindow& window, const char* name) {
    return window.findChild<QAction*>(name);
}

// Whether the toolbar shows `action` as a button the user can see.
bool buttonShown(MainWindow& window, QAction* action) {
    QWidget* button = window.lockActionsBar()->widgetForAction(action);
    return action->isVisible() && button && button->isVisible();
}

// What `action`'s toolbar button says as the pointer rests on it.
QString buttonToolTip(MainWindow& window, QAction* action) {
    QWidget* button = window.lockActionsBar()->widgetForAction(action);
    if (!button)
        return {};
    restPointer(button, button->rect().center());
    return button->toolTip();
}

QString queueKeyAt(MainWindow& window, int row) {
    const LockQueueModel* queue = window.lockWatch()->queue();
    return row < queue->rowCount() ? queue->entryAt(row).keyText : QString();
}

QString queueCell(MainWindow& window, int row, int column) {
    const LockQueueModel* queue = window.lockWatch()->queue();
    return queue->data(queue->index(row, column)).toString();
}

// The etcd servers this test process started and has not reaped.
QSet<pid_t> etcdChildren() {
    const std::set<pid_t> children = test::childProcesses(::getpid(), "etcd");
    return {children.begin(), children.end()};
}

} // namespace

class DesktopEndToEndTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings("LockScopeEndToEndTest");
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
        options_.endpoints = etcd_.cluster().endpoints();
    }

    // Each etcdctl is interrupted, so it gives its lock back rather than leaving a key behind
    // until its lease expires; killed only if that does not end it.
    void cleanup() {
        for (auto& etcdctl : etcdctls_) {
            etcdctl->signal(SIGINT);
            etcdctl->wait(std::chrono::seconds(5));
        }
        etcdctls_.clear();
    }

    void cleanupTestCase() { etcd_.stop(); }

    void acquireAndReleaseThroughTheUiWhileEtcdctlContends() {
        MainWindow window;
        window.connectTo(options_);
        window.setPrefix("/e2e/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);

        process::ChildProcess* first = startEtcdctlLock("/e2e/job");
        std::optional<std::string> line;
        QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*first)).has_value(); },
                                EtcdctlTimeoutMs));
        const QString firstKey = QString::fromStdString(*line);
        QVERIFY2(firstKey.startsWith("/e2e/job/"), qPrintable(firstKey));
        QTRY_COMPARE_WITH_TIMEOUT(waitersShown(window, "/e2e/job"), 0, UiTimeoutMs);
        QVERIFY(selectLock(window, "/e2e/job"));

        // Acquire: the modal dialog is filled in and accepted as a user would.
        QAction* acquire = action(window, "acquireAction");
        QAction* release = action(window, "releaseAction");
        QVERIFY(acquire && release);
        QVERIFY(acquire->isEnabled());
        QVERIFY(!release->isEnabled());
        bool dialogHandled = false;
        QString dialogProblem;
        const auto poll = whenModal(
            [&dialogProblem](QWidget* modal) {
                auto* dialog = qobject_cast<AcquireDialog*>(modal);
                if (!dialog) {
                    dialogProblem = "the modal widget is a " +
                                    QString::fromLatin1(modal->metaObject()->className());
                    modal->close();
                    return;
                }
                auto* name = dialog->findChild<QLineEdit*>("lockName");
                auto* ttl = dialog->findChild<QLineEdit*>("ttlSeconds");
                QPushButton* accept = buttonNamed(*dialog, "Acquire");
                if (!name || !ttl || !accept) {
                    dialogProblem = "the dialog lacks its name, TTL or Acquire button";
                    dialog->reject();
                    return;
                }
                name->setText("/e2e/job");
                ttl->setText("5");
                if (!accept->isEnabled()) {
                    dialogProblem = "Acquire is disabled with a name given";
                    dialog->reject();
                    return;
                }
                QTest::mouseClick(accept, Qt::LeftButton);
            },
            dialogHandled);
        acquire->trigger(); // returns once the dialog is closed
        QVERIFY2(dialogHandled, "no modal acquire dialog appeared");
        QVERIFY2(dialogProblem.isEmpty(), qPrintable(dialogProblem));

        auto* lockActions = window.findChild<LockActions*>();
        QVERIFY(lockActions);
        QVERIFY(lockActions->busy("/e2e/job"));
        QVERIFY(release->isEnabled()); // a wait can be given up
        const LockQueueModel* queue = window.lockWatch()->queue();
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 2, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!lockActions->keyOf("/e2e/job").isEmpty(), UiTimeoutMs);
        const QString ourKey = lockActions->keyOf("/e2e/job");
        QVERIFY2(ourKey.startsWith("/e2e/job/") && ourKey != firstKey, qPrintable(ourKey));
        QCOMPARE(queueKeyAt(window, 0), firstKey);
        QCOMPARE(queueCell(window, 0, LockQueueModel::Position), QString("holder"));
        QCOMPARE(queueKeyAt(window, 1), ourKey);
        QCOMPARE(queueCell(window, 1, LockQueueModel::Position), QString("1 (ours)")); // our row
        QCOMPARE(queueCell(window, 1, LockQueueModel::Predecessor), firstKey);
        auto* card = window.findChild<HolderCard*>("holderCard");
        QCOMPARE(card->key(), firstKey);
        // Our session's lease is the TTL the dialog asked for.
        QTRY_VERIFY_WITH_TIMEOUT(
            queue->data(queue->index(1, LockQueueModel::Ttl), TtlGrantedRole).isValid(),
            UiTimeoutMs);
        QCOMPARE(queue->data(queue->index(1, LockQueueModel::Ttl), TtlGrantedRole).toLongLong(), 5);

        process::ChildProcess* second = startEtcdctlLock("/e2e/job");
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 3, EtcdctlTimeoutMs);
        const QString secondKey = queueKeyAt(window, 2);
        QVERIFY(secondKey != firstKey && secondKey != ourKey);
        QVERIFY(!test::pollLine(*second));
        // The queue table shows the selected lock's queue, not the columns lockscopectl adds.
        auto* queueTable = window.findChild<QTableView*>("queueTable");
        QVERIFY(queueTable->isColumnHidden(LockQueueModel::Lock));
        QVERIFY(queueTable->isColumnHidden(LockQueueModel::GrantedTtl));
        QVERIFY(!queueTable->isColumnHidden(LockQueueModel::Predecessor));
        QVERIFY(saveScreenshot(window, "desktop_ui_waits_in_queue.png"));

        // The first holder goes: the lock is ours.
        first->signal(SIGINT);
        QTRY_COMPARE_WITH_TIMEOUT(card->key(), ourKey, EtcdctlTimeoutMs);
        QCOMPARE(queueKeyAt(window, 0), ourKey);
        QCOMPARE(queueKeyAt(window, 1), secondKey);
        QTRY_VERIFY_WITH_TIMEOUT(
            eventLogHas(window, etcd::LockEventKind::Acquired, ourKey.toStdString()), UiTimeoutMs);
        QVERIFY(eventLogHas(window, etcd::LockEventKind::Released, firstKey.toStdString()));
        QVERIFY(release->isEnabled());
        QVERIFY(buttonShown(window, release));
        QVERIFY(!test::pollLine(*second));
        QTRY_VERIFY_WITH_TIMEOUT(first->wait(std::chrono::milliseconds(0)), EtcdctlTimeoutMs);
        QVERIFY(saveScreenshot(window, "desktop_ui_holds.png"));

        // Release: the second etcdctl takes over.
        release->trigger();
        QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*second)).has_value(); },
                                EtcdctlTimeoutMs));
        QCOMPARE(QString::fromStdString(*line), secondKey);
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 1, UiTimeoutMs);
        QCOMPARE(queueKeyAt(window, 0), secondKey);
        QTRY_COMPARE_WITH_TIMEOUT(card->key(), secondKey, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            eventLogHas(window, etcd::LockEventKind::Released, ourKey.toStdString()), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!lockActions->busy("/e2e/job"), UiTimeoutMs);
        QVERIFY(!release->isEnabled());
        QVERIFY(acquire->isEnabled());
    }

    void forceReleaseWithNoQueueRowRevokesTheHoldersLeaseAfterConfirmation() {
        MainWindow window;
        window.connectTo(options_);
        window.setPrefix("/e2e/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        process::ChildProcess* holder = startEtcdctlLock("/e2e/stuck");
        std::optional<std::string> line;
        QVERIFY(QTest::qWaitFor([&] { return (line = test::pollLine(*holder)).has_value(); },
                                EtcdctlTimeoutMs));
        const QString holderKey = QString::fromStdString(*line);
        QVERIFY2(holderKey.startsWith("/e2e/stuck/"), qPrintable(holderKey));
        QTRY_COMPARE_WITH_TIMEOUT(waitersShown(window, "/e2e/stuck"), 0, UiTimeoutMs);
        QVERIFY(selectLock(window, "/e2e/stuck"));
        QTRY_COMPARE_WITH_TIMEOUT(queueKeyAt(window, 0), holderKey, UiTimeoutMs);

        // No queue row is selected: the action takes the selected lock's holder, and says so.
        QAction* forceRelease = action(window, "forceReleaseAction");
        QVERIFY(forceRelease);
        auto* queueTable = window.findChild<QTableView*>("queueTable");
        QVERIFY(!queueTable->selectionModel()->currentIndex().isValid());
        QTRY_VERIFY_WITH_TIMEOUT(forceRelease->isEnabled(), UiTimeoutMs);
        QVERIFY(buttonShown(window, forceRelease));
        // Each button says whose key it takes as the pointer rests on it (Copy key first: the
        // tooltips are written then, and Force release's would write both).
        QAction* copyKey = action(window, "copyKeyAction");
        QVERIFY(copyKey->isEnabled());
        const QString copyTip = buttonToolTip(window, copyKey);
        QVERIFY2(copyTip.contains(holderKey), qPrintable(copyTip));
        const QString forceTip = buttonToolTip(window, forceRelease);
        QVERIFY2(forceTip.contains("the holder's key " + holderKey), qPrintable(forceTip));
        // Copy key by its shortcut: the key on the clipboard, and a word in the status bar.
        QGuiApplication::clipboard()->clear();
        QTest::keySequence(&window, copyKey->shortcut());
        QCOMPARE(QGuiApplication::clipboard()->text(), holderKey);
        QVERIFY2(window.statusBar()->currentMessage() == "Copied " + holderKey,
                 qPrintable(window.statusBar()->currentMessage()));

        bool boxHandled = false;
        QString boxText;
        QString boxProblem;
        const auto poll = whenModal(
            [&boxText, &boxProblem](QWidget* modal) {
                auto* box = qobject_cast<QMessageBox*>(modal);
                if (!box) {
                    boxProblem = "the modal widget is a " +
                                 QString::fromLatin1(modal->metaObject()->className());
                    modal->close();
                    return;
                }
                boxText = box->text();
                QPushButton* revoke = buttonNamed(*box, "Revoke lease");
                if (!revoke || box->buttonRole(revoke) != QMessageBox::DestructiveRole) {
                    boxProblem = "no destructive \"Revoke lease\" button";
                    box->reject();
                    return;
                }
                if (box->defaultButton() == revoke) {
                    boxProblem = "the destructive button is the default";
                    box->reject();
                    return;
                }
                QTest::mouseClick(revoke, Qt::LeftButton);
            },
            boxHandled);
        forceRelease->trigger(); // returns once the confirmation is answered
        QVERIFY2(boxHandled, "no modal confirmation appeared");
        QVERIFY2(boxProblem.isEmpty(), qPrintable(boxProblem));
        QVERIFY2(boxText.contains("Revoke lease") && boxText.contains(holderKey),
                 qPrintable(boxText));

        QTRY_COMPARE_WITH_TIMEOUT(waitersShown(window, "/e2e/stuck"), -1, UiTimeoutMs);
        // Named for what it was, not a release nor an expiry.
        QTRY_VERIFY_WITH_TIMEOUT(
            eventLogHas(window, etcd::LockEventKind::ForceReleased, holderKey.toStdString()),
            UiTimeoutMs);
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::Released, holderKey.toStdString()));
        QCOMPARE(window.lockWatch()->queue()->rowCount(), 0);
        etcd::pb::RangeRequest get;
        get.set_key(holderKey.toStdString());
        const auto left = etcd::call(etcd_.client(), &etcd::Client::range, get);
        QVERIFY2(left, left.error().message.c_str());
        QCOMPARE(left->kvs_size(), 0);       // the holder's key is gone from etcd itself
        QVERIFY(!forceRelease->isEnabled()); // nobody left to take it from
        QVERIFY(!copyKey->isEnabled());
        // etcdctl learns it lost its session when its keepalive fails: it ends on its own.
        QTRY_VERIFY_WITH_TIMEOUT(holder->wait(std::chrono::milliseconds(0)), EtcdctlTimeoutMs);
    }

    void readOnlyHidesEveryWritingAction() {
        MainWindow window;
        window.connectTo(options_);
        window.setPrefix("/e2e/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QList<QAction*> writing = {
            action(window, "acquireAction"), action(window, "releaseAction"),
            action(window, "pauseAction"), action(window, "forceReleaseAction")};
        QAction* copyKey = action(window, "copyKeyAction");
        QAction* readOnly = action(window, "readOnlyAction");
        QVERIFY(copyKey && readOnly && !writing.contains(nullptr));
        auto* tabs = window.findChild<QTabWidget*>("mainTabs");
        const int labTab = tabs->indexOf(window.findChild<QWidget*>("labPanel"));
        QVERIFY(labTab >= 0);
        for (QAction* a : writing)
            QVERIFY2(buttonShown(window, a), qPrintable(a->objectName()));
        QVERIFY(tabs->widget(labTab)->isEnabled());

        window.setReadOnly(true);
        for (QAction* a : writing) {
            QVERIFY2(!a->isVisible(), qPrintable(a->objectName()));
            QVERIFY2(!buttonShown(window, a), qPrintable(a->objectName()));
        }
        QVERIFY(!tabs->widget(labTab)->isEnabled());
        QVERIFY(buttonShown(window, copyKey));
        QVERIFY(readOnly->isChecked());

        // The File menu's toggle undoes it.
        readOnly->trigger();
        for (QAction* a : writing)
            QVERIFY2(buttonShown(window, a), qPrintable(a->objectName()));
        QVERIFY(tabs->widget(labTab)->isEnabled());
    }

    void sandboxOpensOnTheLabDemo() {
        const QSet<pid_t> etcdBefore = etcdChildren();
        QVERIFY(!etcdBefore.isEmpty()); // the LocalCluster of initTestCase: the check can see
        auto window = std::make_unique<MainWindow>();
        window->startLabDemoWhenConnected();
        window->startSandbox();
        window->show();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        auto* sandbox = window->findChild<Sandbox*>();
        QVERIFY(sandbox);
        const QString dataDirectory = sandbox->dataDirectory();
        QVERIFY(!dataDirectory.isEmpty() && QDir(dataDirectory).exists());

        QTRY_VERIFY_WITH_TIMEOUT(waitersShown(*window, "/lockscope-lab/lock") > 0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(eventCount(*window, etcd::LockEventKind::Acquired) >= 5, 10000);
        const QSet<pid_t> sandboxEtcd = etcdChildren() - etcdBefore;
        QCOMPARE(sandboxEtcd.size(), 1);
        QCOMPARE(window->lockWatch()->prefix(), std::string("/lockscope-lab/"));
        // The Sandbox menu stops its one member too (a lost connection, live).
        auto* stopMember = window->findChild<QAction*>("sandboxMember0");
        QVERIFY(stopMember && stopMember->isEnabled());
        QCOMPARE(stopMember->text(), QString("Stop member 0"));
        QCOMPARE(window->lockWatch()->selectedLock(), std::string("/lockscope-lab/lock"));
        QTRY_VERIFY_WITH_TIMEOUT(window->lockWatch()->queue()->rowCount() > 1, UiTimeoutMs);
        QVERIFY(!window->findChild<HolderCard*>("holderCard")->key().isEmpty());
        QVERIFY(saveScreenshot(*window, "desktop_lab_demo.png"));

        auto* tabs = window->findChild<QTabWidget*>("mainTabs");
        auto* charts = window->findChild<TimelinePage*>("lockCharts");
        tabs->setCurrentWidget(charts);
        QTest::qWait(2000); // the graphs take in a few more seconds of the lab
        QVERIFY(charts->isVisible());
        QVERIFY(saveScreenshot(*window, "desktop_timeline.png"));

        tabs->setCurrentWidget(window->findChild<QWidget*>("labPanel"));
        QVERIFY(saveScreenshot(*window, "desktop_lab_tab.png"));

        window->close(); // finishes once the lab's sessions are revoked
        QTRY_VERIFY_WITH_TIMEOUT(!window->isVisible(), UiTimeoutMs);
        window.reset();
        QVERIFY2(!QDir(dataDirectory).exists(), qPrintable(dataDirectory));
        QTRY_VERIFY_WITH_TIMEOUT(!etcdChildren().contains(*sandboxEtcd.begin()), UiTimeoutMs);
        QCOMPARE(etcdChildren(), etcdBefore);
    }

private:
    // `etcdctl lock <name>`: prints its key once it holds, then holds until SIGINT (cleanup()).
    process::ChildProcess* startEtcdctlLock(const std::string& name) {
        etcdctls_.push_back(test::etcdctlLock(etcd_.cluster().endpointList(), name));
        return etcdctls_.back().get();
    }

    test::LocalEtcd etcd_;
    std::vector<std::unique_ptr<process::ChildProcess>> etcdctls_;
    etcd::ClientOptions options_;
};

LOCKSCOPE_QTEST_MAIN(DesktopEndToEndTest)
#include "desktop_end_to_end_test.moc"
