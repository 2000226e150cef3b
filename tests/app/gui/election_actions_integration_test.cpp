// Campaigning, proclaiming and resigning from the window, and acquiring through etcd's Lock
// service, against a real etcd and the real `etcdctl elect`: our candidacy is shown as ours
// (campaigning, then leading with its proposal), etcdctl sees our proclaim, and resigning or
// releasing leaves no key. Saves screenshots to $LOCKSCOPE_ARTIFACTS_DIR (or the build dir).
#include "app/core/lock_actions.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/gui/main_window.h"
#include "etcdclient/blocking.h"
#include "main_window_probes.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "when_modal.h"
#include "widgets/acquire_dialog.h"
#include "widgets/campaign_dialog.h"
#include "widgets/latency_plot.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QStatusBar>
#include <QTest>
#include <csignal>

using namespace lockscope;
using lockscope::test::buttonNamed;
using lockscope::test::ownState;
using lockscope::test::saveScreenshot;
using lockscope::test::whenModal;

namespace {

constexpr int UiTimeoutMs = 15000;

// The queue's Value (proposal) cell of `key`; "(not shown)" when the queue has no such row.
QString proposalShown(MainWindow& window, const QByteArray& key) {
    const LockQueueModel* queue = window.lockWatch()->queue();
    for (int row = 0; row < queue->rowCount(); ++row)
        if (queue->entryAt(row).key == key.toStdString())
            return queue->index(row, LockQueueModel::Value).data().toString();
    return "(not shown)";
}

} // namespace

class ElectionActionsIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanupTestCase() { etcd_.stop(); }

    void campaignWaitsBehindEtcdctlLeadsProclaimsAndResigns() {
        const std::string endpoints = etcd_.cluster().endpointList();
        auto theirs = test::etcdctlElect(endpoints, "/el/db", "theirs");
        QVERIFY(theirs->readLine(std::chrono::seconds(10)));

        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/el/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(test::selectLock(window, "/el/db"), UiTimeoutMs);
        LockActions* actions = window.workspace()->lockActions();
        QAction* campaign = window.findChild<QAction*>("campaignAction");
        QAction* proclaim = window.findChild<QAction*>("proclaimAction");
        QAction* resign = window.findChild<QAction*>("resignAction");
        QAction* release = window.findChild<QAction*>("releaseAction");

        // Campaign… through its dialog, as a user would.
        bool answered = false;
        const auto dialogPoll = whenModal(
            [](QWidget* modal) {
                auto* dialog = qobject_cast<CampaignDialog*>(modal);
                if (!dialog) {
                    modal->close();
                    return;
                }
                dialog->findChild<QLineEdit*>("proposal")->setText("ours");
                buttonNamed(*dialog, "Campaign")->click();
            },
            answered);
        campaign->trigger();
        QVERIFY(answered);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: campaigning"), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!actions->ownLock("/el/db")->key.isEmpty(), UiTimeoutMs);
        const OwnLock waiting = *actions->ownLock("/el/db");
        QVERIFY(waiting.candidacy);
        QCOMPARE(waiting.proposal, std::string("ours"));
        QTRY_COMPARE_WITH_TIMEOUT(proposalShown(window, waiting.key), QString("ours"), UiTimeoutMs);
        QCOMPARE(resign->text(), QString("Withdraw candidacy"));
        QVERIFY(resign->isEnabled());
        QVERIFY(!proclaim->isEnabled());
        QVERIFY(!release->isEnabled()); // a candidacy resigns; Release is for locks

        theirs->signal(SIGINT); // etcdctl resigns: we lead
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: leading"), UiTimeoutMs);
        // Election words, not lock words: in the status bar and in the event log.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.statusBar()->currentMessage().startsWith("Elected in /el/db (revision "),
            UiTimeoutMs);
        const std::string ourKey = waiting.key.toStdString();
        QTRY_COMPARE_WITH_TIMEOUT(test::eventWordsOf(window, ourKey),
                                  QStringList({"campaigning", "elected"}), UiTimeoutMs);
        QVERIFY2(ownState(window).contains("proposing \"ours\""), qPrintable(ownState(window)));
        QCOMPARE(resign->text(), QString("Resign"));
        QVERIFY(proclaim->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 1, UiTimeoutMs);

        auto listener = std::make_unique<process::ChildProcess>(
            std::vector<std::string>{"etcdctl", "--endpoints=" + endpoints, "elect", "-l",
                                     "/el/db"},
            std::vector<std::string>{"ETCDCTL_API=3"});
        QCOMPARE(listener->readLine(std::chrono::seconds(10)).value_or(""),
                 waiting.key.toStdString());
        QCOMPARE(listener->readLine(std::chrono::seconds(5)).value_or(""), std::string("ours"));

        actions->proclaim("/el/db", "second");
        QCOMPARE(listener->readLine(std::chrono::seconds(10)).value_or(""),
                 waiting.key.toStdString());
        QCOMPARE(listener->readLine(std::chrono::seconds(5)).value_or(""), std::string("second"));
        QTRY_COMPARE_WITH_TIMEOUT(proposalShown(window, waiting.key), QString("second"),
                                  UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).contains("proposing \"second\""), UiTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(test::eventWordsOf(window, ourKey),
                                  QStringList({"campaigning", "elected", "proclaimed"}),
                                  UiTimeoutMs);
        QVERIFY(saveScreenshot(window, "locks_page_leading_election.png"));

        resign->trigger();
        QCOMPARE(actions->ownLock("/el/db")->state, OwnLock::State::Releasing);
        QTRY_COMPARE_WITH_TIMEOUT(actions->ownLock("/el/db")->state, OwnLock::State::Released,
                                  UiTimeoutMs);
        QVERIFY(!resign->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(keys("/el/db/").empty(), UiTimeoutMs);
        QCOMPARE(window.statusBar()->currentMessage(), QString("Resigned from /el/db"));
        QTRY_COMPARE_WITH_TIMEOUT(test::eventWordsOf(window, ourKey),
                                  QStringList({"campaigning", "elected", "proclaimed", "resigned"}),
                                  UiTimeoutMs);
        listener->signal(SIGINT);
        QVERIFY(theirs->wait(std::chrono::seconds(5)));
    }

    void theAcquireDialogTakesALockThroughEtcdsLockService() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/sl/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        LockActions* actions = window.workspace()->lockActions();
        QAction* acquire = window.findChild<QAction*>("acquireAction");
        QTRY_VERIFY_WITH_TIMEOUT(acquire->isEnabled(), UiTimeoutMs);

        bool answered = false;
        bool tryOnlyDisabled = false;
        const auto dialogPoll = whenModal(
            [&tryOnlyDisabled](QWidget* modal) {
                auto* dialog = qobject_cast<AcquireDialog*>(modal);
                if (!dialog) {
                    modal->close();
                    return;
                }
                dialog->findChild<QLineEdit*>("lockName")->setText("/sl/job");
                dialog->findChild<QComboBox*>("lockBackend")->setCurrentIndex(1);
                tryOnlyDisabled = !dialog->findChild<QWidget*>("tryOnly")->isEnabled();
                saveScreenshot(*dialog, "acquire_dialog_lock_service.png");
                buttonNamed(*dialog, "Acquire")->click();
            },
            answered);
        acquire->trigger();
        QVERIFY(answered);
        QVERIFY(tryOnlyDisabled);
        QTRY_VERIFY_WITH_TIMEOUT(test::selectLock(window, "/sl/job"), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(ownState(window).startsWith("Ours: held"), UiTimeoutMs);
        QVERIFY2(ownState(window).contains("through etcd's Lock service"),
                 qPrintable(ownState(window)));
        const OwnLock held = *actions->ownLock("/sl/job");
        QVERIFY(held.serverLock);
        QVERIFY(held.fencingToken > 0);
        QCOMPARE(keys("/sl/job/"), std::vector<std::string>{held.key.toStdString()});
        // The Cluster page: Lock.Lock waits on the server, so it is a wait, not a round trip.
        auto* roundTrips = window.findChild<LatencyPlot*>("latencyPlot");
        auto* waits = window.findChild<LatencyPlot*>("serverWaitPlot");
        QVERIFY(roundTrips && waits);
        QTRY_VERIFY_WITH_TIMEOUT(waits->pointCount("Lock.Lock") > 0, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(roundTrips->pointCount("KV.Range") > 0, UiTimeoutMs);
        QVERIFY2(!roundTrips->seriesNames().contains("Lock.Lock"),
                 qPrintable(roundTrips->seriesNames().join(", ")));
        QCOMPARE(waits->seriesNames(), QStringList({"Lock.Lock"}));

        window.findChild<QAction*>("releaseAction")->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(actions->ownLock("/sl/job")->state, OwnLock::State::Released,
                                  UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(keys("/sl/job/").empty(), UiTimeoutMs);
    }

private:
    std::vector<std::string> keys(const std::string& prefix) {
        auto listed = test::keysUnder(etcd_.client(), prefix);
        return listed ? *listed : std::vector<std::string>{"(unreadable)"};
    }

    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(ElectionActionsIntegrationTest)
#include "election_actions_integration_test.moc"
