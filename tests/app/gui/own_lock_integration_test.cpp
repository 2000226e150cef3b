// Our own locks in the window, against a real etcd and the real `etcdctl`: a lock of ours whose
// lease is revoked shows "lost" (holder card, lock list, event log, problems) with Release
// disabled, and Acquire then really takes it again; a cancelled wait and a force release are
// logged as what they are. Saves screenshots to $LOCKSCOPE_ARTIFACTS_DIR (or the build dir).
#include "app/core/lock_actions.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/problem_log_model.h"
#include "app/core/workspace.h"
#include "app/gui/main_window.h"
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "main_window_probes.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "when_modal.h"
#include "widgets/holder_card.h"
#include "widgets/problem_list.h"

#include <QAction>
#include <QCheckBox>
#include <QDialog>
#include <QLineEdit>
#include <QSettings>
#include <QTest>
#include <csignal>

using namespace lockscope;
using lockscope::test::eventLogHas;
using lockscope::test::ownState;
using lockscope::test::problemListed;
using lockscope::test::saveScreenshot;
using lockscope::test::whenModal;

namespace {

constexpr int UiTimeoutMs = 15000;

// The lock list's Ours cell of `lock`; "(not listed)" when the list has no row for it.
QString oursListed(MainWindow& window, const std::string& lock) {
    const LockListModel* locks = window.lockWatch()->locks();
    const int row = locks->rowOfLock(lock);
    return row < 0 ? QString("(not listed)")
                   : locks->index(row, LockListModel::Ours).data().toString();
}

} // namespace

class OwnLockIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanupTestCase() { etcd_.stop(); }

    // A lock of ours whose lease `etcdctl lease revoke` ended is lost: Release is disabled, and
    // acquiring the same name again puts a key in etcd and takes it.
    void aRevokedLeaseOfOursIsLostAndAcquireTakesTheLockAgain() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/own-lost/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LockActions* actions = window.workspace()->lockActions();
        QAction* release = window.findChild<QAction*>("releaseAction");

        actions->acquire("/own-lost/job", 30, false);
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->selectedLockText(), QString("/own-lost/job"),
                                  UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: held"), UiTimeoutMs);
        QVERIFY(release->isEnabled());
        QCOMPARE(release->text(), QString("Release"));
        QCOMPARE(oursListed(window, "/own-lost/job"), QString("held"));
        const OwnLock held = *actions->ownLock("/own-lost/job");
        QCOMPARE(keys("/own-lost/job/"), std::vector<std::string>{held.key.toStdString()});

        // Revoked by hand, as an operator would.
        const auto revoked = test::etcdctl(etcd_.cluster().endpointList(),
                                           {"lease", "revoke", etcd::leaseHex(held.lease)});
        QVERIFY2(revoked.exitCode == 0, revoked.output.c_str());

        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: lost"), UiTimeoutMs);
        QVERIFY(!release->isEnabled());
        QVERIFY(!actions->busy("/own-lost/job"));
        QCOMPARE(actions->ownLock("/own-lost/job")->state, OwnLock::State::Lost);
        // Still listed, though no key of it is left, and marked.
        QTRY_COMPARE_WITH_TIMEOUT(oursListed(window, "/own-lost/job"), QString("lost"),
                                  UiTimeoutMs);
        QCOMPARE(window.lockWatch()->selectedLockText(), QString("/own-lost/job"));
        QVERIFY(eventLogHas(window, etcd::LockEventKind::Lost, held.key.toStdString()));
        // Its key went without our asking: taken from us, not released.
        QTRY_VERIFY_WITH_TIMEOUT(
            eventLogHas(window, etcd::LockEventKind::ForceReleased, held.key.toStdString()),
            UiTimeoutMs);
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::Released, held.key.toStdString()));
        QVERIFY(problemListed(window, "Lost the lock /own-lost/job"));
        QVERIFY(keys("/own-lost/job/").empty());
        QVERIFY(saveScreenshot(window, "locks_page_lost_lock.png"));

        // Acquire again really acquires: a new session, a new key, held.
        actions->acquire("/own-lost/job", 30, false);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: held"), UiTimeoutMs);
        const OwnLock again = *actions->ownLock("/own-lost/job");
        QVERIFY(again.lease != held.lease);
        QCOMPARE(keys("/own-lost/job/"), std::vector<std::string>{again.key.toStdString()});
        QVERIFY(release->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(oursListed(window, "/own-lost/job"), QString("held"),
                                  UiTimeoutMs);
        // The lost lock stays a problem until dismissed.
        QVERIFY(problemListed(window, "Lost the lock /own-lost/job"));

        release->trigger();
        // Releasing at once, released once etcd confirms (the card may move on: nobody holds
        // the lock once its key is gone).
        QCOMPARE(actions->ownLock("/own-lost/job")->state, OwnLock::State::Releasing);
        QVERIFY(!release->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(actions->ownLock("/own-lost/job")->state,
                                  OwnLock::State::Released, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(keys("/own-lost/job/").empty(), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            eventLogHas(window, etcd::LockEventKind::Released, again.key.toStdString()),
            UiTimeoutMs);
        // Nobody holds it and it is not ours: it leaves the list.
        QTRY_COMPARE_WITH_TIMEOUT(oursListed(window, "/own-lost/job"), QString("(not listed)"),
                                  UiTimeoutMs);
    }

    // Pause keepalive: our lease runs out, and the end of our hold is an expiry.
    void aPausedKeepaliveExpiresOurLockAndSaysSo() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/own-paused/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LockActions* actions = window.workspace()->lockActions();
        actions->acquire("/own-paused/job", 4, false);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: held"), UiTimeoutMs);
        const std::string key = actions->ownLock("/own-paused/job")->key.toStdString();
        QAction* pause = window.findChild<QAction*>("pauseAction");
        QVERIFY(pause->isEnabled());
        pause->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).contains("keepalive paused"), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: lost"), UiTimeoutMs);
        QVERIFY(!pause->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(eventLogHas(window, etcd::LockEventKind::Expired, key),
                                 UiTimeoutMs);
        QVERIFY(eventLogHas(window, etcd::LockEventKind::Lost, key));
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::Released, key));
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::ForceReleased, key));
    }

    // A cancelled wait and a forced revoke are logged as such, not as "released".
    void aCancelledWaitAndAForceReleaseAreLoggedAsSuch() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/own-events/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LockActions* actions = window.workspace()->lockActions();
        QAction* release = window.findChild<QAction*>("releaseAction");

        auto holder = test::etcdctlLock(etcd_.cluster().endpointList(), "/own-events/job");
        const auto holderKey = holder->readLine(std::chrono::seconds(10));
        QVERIFY(holderKey);
        actions->acquire("/own-events/job", 30, false);
        QTRY_COMPARE_WITH_TIMEOUT(keys("/own-events/job/").size(), std::size_t(2), UiTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 2, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: waiting"), UiTimeoutMs);
        // Our row in the queue says it is ours.
        QTRY_COMPARE_WITH_TIMEOUT(
            window.lockWatch()->queue()->index(1, LockQueueModel::Position).data().toString(),
            QString("1 (ours)"), UiTimeoutMs);
        QCOMPARE(release->text(), QString("Cancel wait"));
        const std::string ourKey = actions->ownLock("/own-events/job")->key.toStdString();
        release->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(eventLogHas(window, etcd::LockEventKind::Cancelled, ourKey),
                                 UiTimeoutMs);
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::Released, ourKey));
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: cancelled"), UiTimeoutMs);
        QCOMPARE(keys("/own-events/job/"), std::vector<std::string>{*holderKey});

        const auto kv = only("/own-events/job/");
        actions->forceRelease(ForceReleasePlan{QByteArray::fromStdString(kv.key()), kv.lease(),
                                               kv.create_revision()});
        QTRY_VERIFY_WITH_TIMEOUT(
            eventLogHas(window, etcd::LockEventKind::ForceReleased, *holderKey), UiTimeoutMs);
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::Released, *holderKey));
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::Expired, *holderKey));
        QVERIFY(saveScreenshot(window, "locks_page_event_kinds.png"));
        holder->signal(SIGKILL);
        holder->wait(std::chrono::seconds(10));
    }

    // Only if free, against a held lock: our attempt deletes its own key, and the event log says
    // that it was our own cleanup, never a force release.
    void anOnlyIfFreeTryThatFindsTheLockHeldLogsOurOwnCleanup() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/own-try/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LockActions* actions = window.workspace()->lockActions();
        auto holder = test::etcdctlLock(etcd_.cluster().endpointList(), "/own-try/job");
        const auto holderKey = holder->readLine(std::chrono::seconds(10));
        QVERIFY(holderKey);
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->locks()->rowCount(), 1, UiTimeoutMs);

        actions->acquire("/own-try/job", 10, true);
        QTRY_COMPARE_WITH_TIMEOUT(actions->ownLock("/own-try/job")->state,
                                  OwnLock::State::NotAcquired, UiTimeoutMs);
        const std::string ourKey = actions->ownLock("/own-try/job")->key.toStdString();
        QVERIFY(!ourKey.empty());
        QTRY_VERIFY_WITH_TIMEOUT(test::eventCount(window, EventCause::OwnCleanup, ourKey) == 1,
                                 UiTimeoutMs);
        QCOMPARE(test::eventWordsOf(window, ourKey).last(), QString("our try withdrew"));
        QVERIFY(!eventLogHas(window, etcd::LockEventKind::ForceReleased, ourKey));
        QCOMPARE(keys("/own-try/job/"), std::vector<std::string>{*holderKey});
        QVERIFY(saveScreenshot(window, "locks_page_own_cleanup.png"));
        holder->signal(SIGKILL);
        holder->wait(std::chrono::seconds(10));
    }

    // Acquire… keeps the last TTL and only-if-free choice; Campaign… does not take a mutex's name
    // for an election's, and Acquire… takes it.
    void theDialogsRememberTheirChoicesAndPrefillOnlyTheirKind() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/own-dialog/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto holder = test::etcdctlLock(etcd_.cluster().endpointList(), "/own-dialog/mutex");
        QVERIFY(holder->readLine(std::chrono::seconds(10)));
        QTRY_VERIFY_WITH_TIMEOUT(test::selectLock(window, "/own-dialog/mutex"), UiTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 1, UiTimeoutMs);

        struct Shown {
            QString name;
            QString ttl;
            bool tryOnly = false;
        };
        // Opens the dialog `action` opens, notes what it shows, then fills it in (when `fill`)
        // and accepts, or cancels.
        const auto open = [&window](const char* action, const std::function<void(QDialog&)>& fill) {
            Shown shown;
            bool answered = false;
            const auto poll = whenModal(
                [&shown, &fill](QWidget* modal) {
                    auto* dialog = qobject_cast<QDialog*>(modal);
                    if (!dialog) {
                        modal->close();
                        return;
                    }
                    const auto* name = dialog->findChild<QLineEdit*>("lockName")
                                           ? dialog->findChild<QLineEdit*>("lockName")
                                           : dialog->findChild<QLineEdit*>("electionName");
                    shown.name = name ? name->text() : "(no name field)";
                    shown.ttl = dialog->findChild<QLineEdit*>("ttlSeconds")->text();
                    const auto* tryOnly = dialog->findChild<QCheckBox*>("tryOnly");
                    shown.tryOnly = tryOnly && tryOnly->isChecked();
                    if (fill) {
                        fill(*dialog);
                        dialog->accept();
                    } else {
                        dialog->reject();
                    }
                },
                answered);
            window.findChild<QAction*>(action)->trigger();
            return answered ? shown : Shown{"(no dialog)", {}, false};
        };

        const Shown campaign = open("campaignAction", {});
        QCOMPARE(campaign.name, QString());
        const Shown first = open("acquireAction", [](QDialog& dialog) {
            dialog.findChild<QLineEdit*>("lockName")->setText("/own-dialog/other");
            dialog.findChild<QLineEdit*>("ttlSeconds")->setText("17");
            dialog.findChild<QCheckBox*>("tryOnly")->setChecked(true);
        });
        QCOMPARE(first.name, QString("/own-dialog/mutex"));
        QTRY_COMPARE_WITH_TIMEOUT(
            window.workspace()->lockActions()->ownLock("/own-dialog/other")->state,
            OwnLock::State::Held, UiTimeoutMs);
        const Shown again = open("acquireAction", {});
        QCOMPARE(again.ttl, QString("17"));
        QVERIFY(again.tryOnly);
        holder->signal(SIGKILL);
        holder->wait(std::chrono::seconds(10));
    }

private:
    std::vector<std::string> keys(const std::string& prefix) {
        auto listed = test::keysUnder(etcd_.client(), prefix);
        return listed ? *listed : std::vector<std::string>{"(unreadable)"};
    }
    mvccpb::KeyValue only(const std::string& prefix) {
        etcd::pb::RangeRequest r;
        r.set_key(prefix);
        r.set_range_end(etcd::prefixRangeEnd(prefix));
        auto got = etcd::call(etcd_.client(), &etcd::Client::range, r);
        return got && got->kvs_size() == 1 ? got->kvs(0) : mvccpb::KeyValue{};
    }

    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(OwnLockIntegrationTest)
#include "own_lock_integration_test.moc"
