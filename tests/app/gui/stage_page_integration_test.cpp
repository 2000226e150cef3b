// The Stage page against a real etcd: real `etcdctl lock` holders and waiters line up in order
// and move on at a handoff, a force release from a token's menu takes the key away, and
// screenshots of the stage with the lab's contention, in the window and in presentation mode.
#include "app/core/lock_actions.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/gui/lab_page.h"
#include "app/gui/main_window.h"
#include "app/gui/stage_page.h"
#include "main_window_probes.h"
#include "process/child_process.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "when_modal.h"
#include "widgets/shortcuts_dialog.h"
#include "widgets/stage_view.h"

#include <QAbstractButton>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTest>
#include <csignal>

using namespace lockscope;
using namespace lockscope::test;

namespace {
constexpr int UiTimeoutMs = 15000;
} // namespace

class StagePageIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanupTestCase() {
        etcdctls_.clear();
        etcd_.stop();
    }

    void aHolderAndAWaiterLineUpAndMoveOnAtTheHandoff() {
        MainWindow window;
        StageView* view = showStage(window, "/stage/");
        process::ChildProcess* holder = startEtcdctlLock("/stage/job");
        const QString holderKey = keyPrinted(*holder);
        QVERIFY(!holderKey.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(view->keysOf("/stage/job"), QStringList{holderKey}, UiTimeoutMs);
        process::ChildProcess* waiter = startEtcdctlLock("/stage/job");
        QTRY_COMPARE_WITH_TIMEOUT(view->keysOf("/stage/job").size(), 2, UiTimeoutMs);
        QCOMPARE(view->keysOf("/stage/job").front(), holderKey); // the older key holds
        const QString waiterKey = view->keysOf("/stage/job").back();
        const QPointF front = *view->centreOf("/stage/job", holderKey);
        QTRY_VERIFY(view->centreOf("/stage/job", waiterKey)->x() > front.x());
        // Each ring shows its lease's TTL once the watch has looked it up.
        QTRY_VERIFY_WITH_TIMEOUT(view->ringFraction("/stage/job", holderKey) &&
                                     view->ringFraction("/stage/job", waiterKey),
                                 UiTimeoutMs);
        QVERIFY(saveScreenshot(window, "stage_holder_and_waiter.png"));

        holder->signal(SIGTERM); // etcdctl unlocks on its way out: the waiter takes over
        QCOMPARE(keyPrinted(*waiter), waiterKey);
        QTRY_COMPARE_WITH_TIMEOUT(view->keysOf("/stage/job"), QStringList{waiterKey}, UiTimeoutMs);
        QTRY_COMPARE(*view->centreOf("/stage/job", waiterKey), front); // moved to the front
        waiter->signal(SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(view->keysOf("/stage/job").isEmpty(), UiTimeoutMs);
    }

    void aTokensMenuForceReleasesItsKey() {
        MainWindow window;
        StageView* view = showStage(window, "/stage-force/");
        const QString key = keyPrinted(*startEtcdctlLock("/stage-force/job"));
        QVERIFY(!key.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(view->centreOf("/stage-force/job", key), UiTimeoutMs);
        const auto hit = view->tokenAt(view->centreOf("/stage-force/job", key)->toPoint());
        QVERIFY(hit);
        QCOMPARE(hit->token.key, key);

        QMenu menu;
        window.findChild<StagePage*>("stagePage")->fillTokenMenu(menu, hit->lock, hit->token);
        auto* force = menu.findChild<QAction*>("stageForceReleaseAction");
        auto* pause = menu.findChild<QAction*>("stagePauseAction");
        QVERIFY(force && force->isVisible() && force->isEnabled());
        QVERIFY(pause && !pause->isEnabled()); // not ours: no keepalives of ours to pause
        QVERIFY(saveMenuScreenshot(menu, window, "stage_token_menu.png"));
        QString asked;
        bool handled = false;
        const auto confirm = whenModal(
            [&asked](QWidget* modal) {
                auto* box = qobject_cast<QMessageBox*>(modal);
                asked = box->text();
                for (QAbstractButton* button : box->buttons())
                    if (box->buttonRole(button) == QMessageBox::DestructiveRole)
                        button->click();
            },
            handled);
        force->trigger();
        QVERIFY(handled);
        QVERIFY2(asked.contains(key), qPrintable(asked)); // the confirmation names the key
        QTRY_VERIFY_WITH_TIMEOUT(view->keysOf("/stage-force/job").isEmpty(), UiTimeoutMs);
        QVERIFY(eventLogHas(window, etcd::LockEventKind::ForceReleased, key.toStdString()));
        // Named on the stage while it fades.
        QVERIFY(view->lanes().contains("/stage-force/job"));
        QVERIFY(saveScreenshot(window, "stage_force_released.png"));
    }

    // Our own lock's token pauses its keepalives from its menu: its ring runs down, and it goes.
    void pausingOurKeepaliveFromATokenLetsItsLeaseRunOut() {
        MainWindow window;
        StageView* view = showStage(window, "/stage-pause/");
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        LockActions* actions = window.workspace()->lockActions();
        actions->acquire("/stage-pause/job", 3, false);
        QTRY_VERIFY_WITH_TIMEOUT(view->keysOf("/stage-pause/job").size() == 1, UiTimeoutMs);
        const QString key = view->keysOf("/stage-pause/job").front();
        QTRY_VERIFY_WITH_TIMEOUT(
            view->tokenAt(view->centreOf("/stage-pause/job", key)->toPoint())->token.ours,
            UiTimeoutMs);
        const auto hit = view->tokenAt(view->centreOf("/stage-pause/job", key)->toPoint());
        QMenu menu;
        window.findChild<StagePage*>("stagePage")->fillTokenMenu(menu, hit->lock, hit->token);
        auto* pause = menu.findChild<QAction*>("stagePauseAction");
        QVERIFY(pause && pause->isEnabled() && !pause->isChecked());
        pause->trigger();
        QVERIFY(actions->paused("/stage-pause/job"));
        QTRY_VERIFY_WITH_TIMEOUT(view->ringLow("/stage-pause/job", key), UiTimeoutMs);
        QVERIFY(saveScreenshot(window, "stage_paused_low_ttl.png"));
        QTRY_VERIFY_WITH_TIMEOUT(view->keysOf("/stage-pause/job").isEmpty(), UiTimeoutMs);
        QCOMPARE(actions->ownLock("/stage-pause/job")->state, OwnLock::State::Lost);
    }

    // The lab's contention on the stage, in the window and full screen; F11 is listed among the
    // shortcuts and Esc leaves presentation mode.
    void theLabOnTheStageAndInPresentationMode() {
        MainWindow window;
        StageView* view = showStage(window, "/stage-lab/");
        auto* lab = window.findChild<LabPage*>("labPanel");
        lab::LabOptions options;
        options.workers = 20;
        options.locks = {"/stage-lab/deploy", "/stage-lab/db-migrate", "/stage-lab/cron",
                         "/stage-lab/backup", "/stage-lab/report"};
        options.hold = std::chrono::milliseconds(600);
        options.think = std::chrono::milliseconds(300);
        options.ttlSeconds = 2;
        // Some holders stall past their TTL: their leases expire, named so on the stage, and
        // the next holder overlaps one that still believes it holds: a split brain.
        options.stallProbability = 0.15;
        lab->setOptions(options);
        lab->start();
        QTRY_COMPARE_WITH_TIMEOUT(view->lanes().size(), 5, UiTimeoutMs);
        QTest::qWait(3000);
        QVERIFY(saveScreenshot(window, "stage_lab.png"));
        QString splitLock;
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (const QString& lock : view->lanes())
                    if (view->splitBrainOf(lock))
                        splitLock = lock;
                return !splitLock.isEmpty();
            },
            30000));
        QVERIFY2(lab->figures().contains(QRegularExpression("split brains found: [1-9]")),
                 qPrintable(lab->figures()));
        QVERIFY(saveScreenshot(window, "stage_split_brain.png"));

        auto* page = window.findChild<StagePage*>("stagePage");
        QAction* presentation = page->presentationAction();
        presentation->trigger();
        QVERIFY(page->presenting());
        QVERIFY(view->presentation());
        QWidget* full = view->window();
        QVERIFY(full != &window);
        QVERIFY(QTest::qWaitForWindowExposed(full));
        QTest::qWait(1000);
        QVERIFY(saveScreenshot(*full, "stage_presentation.png"));
        QTest::keyClick(full, Qt::Key_Escape);
        QTRY_VERIFY(!page->presenting());
        QVERIFY(!view->presentation());
        QCOMPARE(view->window(), &window);
        lab->stop();

        ShortcutsDialog shortcuts(window.menuBar());
        shortcuts.show();
        QVERIFY(shortcuts.shortcuts().contains({"View → Presentation mode", "F11"}));
    }

private:
    StageView* showStage(MainWindow& window, const QString& prefix) {
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix(prefix);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window))
            return nullptr;
        auto* page = window.findChild<StagePage*>("stagePage");
        window.findChild<QTabWidget*>("mainTabs")->setCurrentWidget(page);
        return page->view();
    }

    static bool saveMenuScreenshot(QMenu& menu, QWidget& window, const QString& name) {
        menu.popup(window.mapToGlobal(QPoint(200, 200)));
        if (!QTest::qWaitForWindowExposed(&menu))
            return false;
        const bool saved = saveScreenshot(menu, name);
        menu.hide();
        return saved;
    }

    // The key an `etcdctl lock` prints once it holds the lock; empty if it did not in time.
    static QString keyPrinted(process::ChildProcess& etcdctl) {
        std::optional<std::string> line;
        if (!QTest::qWaitFor([&] { return (line = pollLine(etcdctl)).has_value(); }, UiTimeoutMs))
            return {};
        return QString::fromStdString(*line);
    }

    process::ChildProcess* startEtcdctlLock(const std::string& name) {
        etcdctls_.push_back(etcdctlLock(etcd_.cluster().endpointList(), name));
        return etcdctls_.back().get();
    }

    LocalEtcd etcd_;
    std::vector<std::unique_ptr<process::ChildProcess>> etcdctls_;
};

LOCKSCOPE_QTEST_MAIN(StagePageIntegrationTest)
#include "stage_page_integration_test.moc"
