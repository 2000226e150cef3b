// The Locks page never misleads, offscreen against a real etcd and real `etcdctl`:
// times that began before LockScope looked are shown as lower bounds, each prefix keeps its
// event log for the session. Saves screenshots to $LOCKSCOPE_ARTIFACTS_DIR (or the build dir).
#include "app/core/event_log_model.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/gui/main_window.h"
#include "etcdclient/blocking.h"
#include "etcdclient/locks/rw_mutex.h"
#include "main_window_probes.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "test_settings.h"
#include "widgets/holder_card.h"

#include <QAbstractProxyModel>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTableView>
#include <QTest>
#include <csignal>

using namespace lockscope;
using lockscope::test::eventLogHas;
using lockscope::test::saveScreenshot;
using lockscope::test::selectLock;

namespace {

constexpr int UiTimeoutMs = 15000;

QString queueCell(MainWindow& window, int row, int column, int role = Qt::DisplayRole) {
    const LockQueueModel* queue = window.lockWatch()->queue();
    return row < queue->rowCount() ? queue->index(row, column).data(role).toString() : QString();
}

// The event of `kind` for `key` in the window's log; null when there is none.
const etcd::LockEvent* loggedEvent(MainWindow& window, etcd::LockEventKind kind,
                                   const std::string& key) {
    const EventLogModel* events = window.lockWatch()->events();
    for (int row = 0; row < events->rowCount(); ++row)
        if (events->eventAt(row).kind == kind && events->eventAt(row).key == key)
            return &events->eventAt(row);
    return nullptr;
}

// The texts of the labels shown in `widget`.
QStringList visibleLabelTexts(QWidget& widget) {
    QStringList texts;
    for (auto* label : widget.findChildren<QLabel*>())
        if (label->isVisible())
            texts << label->text();
    return texts;
}

} // namespace

class LocksPageIntegrationTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        useFreshTestSettings();
        QVERIFY2(etcd_.start(), etcd_.error().c_str());
    }

    void cleanup() { etcdctls_.clear(); }
    void cleanupTestCase() { etcd_.stop(); }

    // A lock held for minutes before the window opened is not "Held for 3.8 s".
    void aLockHeldBeforeTheWindowOpenedShowsAtLeastAndWhy() {
        process::ChildProcess* holder = startEtcdctlLock("/honest/job");
        const auto holderKey = holder->readLine(std::chrono::seconds(15));
        QVERIFY(holderKey);
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/honest/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(selectLock(window, "/honest/job"), UiTimeoutMs);

        QTRY_VERIFY_WITH_TIMEOUT(
            queueCell(window, 0, LockQueueModel::Waiting).startsWith("held ≥ "), UiTimeoutMs);
        QVERIFY(queueCell(window, 0, LockQueueModel::Waiting, Qt::ToolTipRole)
                    .contains("already held the lock when LockScope first saw it"));
        auto* heldFor = window.findChild<QLabel*>("holderHeldFor");
        QTRY_VERIFY_WITH_TIMEOUT(heldFor->text().startsWith("≥ "), UiTimeoutMs);
        QVERIFY(heldFor->toolTip().contains("etcd keeps no time of creation"));

        // A waiter that comes while the window watches: its wait is exact.
        process::ChildProcess* waiter = startEtcdctlLock("/honest/job");
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 2, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(!queueCell(window, 1, LockQueueModel::Waiting).isEmpty(),
                                 UiTimeoutMs);
        QVERIFY(!queueCell(window, 1, LockQueueModel::Waiting).contains("≥"));
        QVERIFY(queueCell(window, 1, LockQueueModel::Waiting, Qt::ToolTipRole).isEmpty());
        QVERIFY(saveScreenshot(window, "locks_page_at_least.png"));

        holder->signal(SIGINT);
        const auto waiterKey = waiter->readLine(std::chrono::seconds(15));
        QVERIFY(waiterKey);
        QTRY_VERIFY_WITH_TIMEOUT(loggedEvent(window, etcd::LockEventKind::Acquired, *waiterKey),
                                 UiTimeoutMs);
        const etcd::LockEvent* released =
            loggedEvent(window, etcd::LockEventKind::Released, *holderKey);
        QVERIFY(released && released->held);
        QVERIFY(released->atLeast);
        QVERIFY(!loggedEvent(window, etcd::LockEventKind::Acquired, *waiterKey)->atLeast);
        // The new holder was seen to acquire: no "≥" on it.
        QTRY_VERIFY_WITH_TIMEOUT(queueCell(window, 0, LockQueueModel::Waiting).startsWith("held "),
                                 UiTimeoutMs);
        QVERIFY(!queueCell(window, 0, LockQueueModel::Waiting).contains("≥"));
    }

    // A prefix change does not wipe the event history.
    void eachPrefixKeepsItsEventLogForTheSession() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/history-a/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        // Takes the lock, runs `true`, lets go.
        process::ChildProcess* brief = startEtcdctlLock("/history-a/job", {"true"});
        QVERIFY(brief->wait(std::chrono::seconds(15)));
        QTRY_VERIFY_WITH_TIMEOUT(test::eventCount(window, etcd::LockEventKind::Released) == 1,
                                 UiTimeoutMs);
        const int eventsOfA = window.lockWatch()->events()->rowCount();

        window.setPrefix("/history-b/");
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->prefix(), std::string("/history-b/"),
                                  UiTimeoutMs);
        QCOMPARE(window.lockWatch()->events()->rowCount(), 0);

        window.setPrefix("/history-a/");
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->prefix(), std::string("/history-a/"),
                                  UiTimeoutMs);
        QCOMPARE(window.lockWatch()->events()->rowCount(), eventsOfA);
        QCOMPARE(test::eventCount(window, etcd::LockEventKind::Released), 1);
        QCOMPARE(window.lockWatch()->events()->eventAt(0).lock, std::string("/history-a/job"));
    }

    // A hold seen from its start is still exact when its prefix is watched again: etcd keeps no
    // times, but this window saw it begin.
    void aHoldSeenBeginsKeepsItsTimeAcrossAPrefixSwitch() {
        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/carried/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        process::ChildProcess* holder = startEtcdctlLock("/carried/job");
        QVERIFY(holder->readLine(std::chrono::seconds(15)));
        QTRY_VERIFY_WITH_TIMEOUT(selectLock(window, "/carried/job"), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(queueCell(window, 0, LockQueueModel::Waiting).startsWith("held "),
                                 UiTimeoutMs);
        QVERIFY(!window.lockWatch()->queue()->ageIsLowerBound(0));
        QTest::qWait(1500); // held a while, so a restarted count would show less

        window.setPrefix("/elsewhere/");
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->prefix(), std::string("/elsewhere/"),
                                  UiTimeoutMs);
        // The lock shown before is not under this prefix: none is shown.
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->selectedLock(), std::string(), UiTimeoutMs);
        window.setPrefix("/carried/");
        QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(selectLock(window, "/carried/job"), UiTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 1, UiTimeoutMs);
        QVERIFY2(!window.lockWatch()->queue()->ageIsLowerBound(0),
                 qPrintable(queueCell(window, 0, LockQueueModel::Waiting)));
        QVERIFY(!queueCell(window, 0, LockQueueModel::Waiting).contains("≥"));
        QVERIFY2(window.lockWatch()->queue()->ageOf(0) >= std::chrono::milliseconds(1500),
                 qPrintable(queueCell(window, 0, LockQueueModel::Waiting)));
        // Its release is exact too.
        holder->signal(SIGINT);
        QTRY_VERIFY_WITH_TIMEOUT(test::eventCount(window, etcd::LockEventKind::Released) >= 1,
                                 UiTimeoutMs);
        const etcd::LockEvent* released = nullptr;
        for (int row = 0; row < window.lockWatch()->events()->rowCount(); ++row)
            if (window.lockWatch()->events()->eventAt(row).kind == etcd::LockEventKind::Released)
                released = &window.lockWatch()->events()->eventAt(row);
        QVERIFY(released && released->held);
        QVERIFY(!released->atLeast);
        QVERIFY(*released->held >= std::chrono::milliseconds(1500));
    }

    // The next window on the same cluster (a restart) knows what this one saw begin.
    void aHoldSeenBeginsKeepsItsTimeInTheNextWindow() {
        process::ChildProcess* holder = startEtcdctlLock("/restarted/job");
        QVERIFY(holder->readLine(std::chrono::seconds(15))); // held before any window
        std::optional<std::string> key;
        {
            MainWindow window;
            window.connectTo(etcd_.cluster().clientOptions());
            window.setPrefix("/restarted/");
            QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->live(), UiTimeoutMs);
            QTRY_VERIFY_WITH_TIMEOUT(selectLock(window, "/restarted/job"), UiTimeoutMs);
            QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 1, UiTimeoutMs);
            // Before the window: at least. Here no window saw it begin.
            QVERIFY(window.lockWatch()->queue()->ageIsLowerBound(0));
            process::ChildProcess* waiter = startEtcdctlLock("/restarted/job");
            QTRY_COMPARE_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount(), 2, UiTimeoutMs);
            holder->signal(SIGINT); // the waiter takes it, and this window sees it happen
            key = waiter->readLine(std::chrono::seconds(15));
            QVERIFY(key);
            QTRY_VERIFY_WITH_TIMEOUT(window.lockWatch()->queue()->rowCount() == 1 &&
                                         !window.lockWatch()->queue()->ageIsLowerBound(0),
                                     UiTimeoutMs);
            QTest::qWait(1500);
        } // closed: what it saw is written

        MainWindow next;
        next.connectTo(etcd_.cluster().clientOptions());
        next.setPrefix("/restarted/");
        QTRY_VERIFY_WITH_TIMEOUT(next.lockWatch()->live(), UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(selectLock(next, "/restarted/job"), UiTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(next.lockWatch()->queue()->rowCount(), 1, UiTimeoutMs);
        QCOMPARE(next.lockWatch()->queue()->entryAt(0).key, *key);
        QVERIFY2(!next.lockWatch()->queue()->ageIsLowerBound(0),
                 qPrintable(queueCell(next, 0, LockQueueModel::Waiting)));
        QVERIFY(next.lockWatch()->queue()->ageOf(0) >= std::chrono::milliseconds(1500));
    }

    // Cells read whole (not "⚠ 2 …_key", no key cut in the middle) and the list sorts.
    void longKeysBadgesAndSortingReadWhole() {
        const std::string longName =
            "/readable/a-lock-name-long-enough-to-be-elided-in-every-table-of-the-page";
        startEtcdctlLock(longName);
        process::ChildProcess* busy = startEtcdctlLock("/readable/busy");
        QVERIFY(busy->readLine(std::chrono::seconds(15)));
        for (int i = 0; i < 3; ++i)
            startEtcdctlLock("/readable/busy");
        etcd::pb::PutRequest stray; // no lease and not a lock key: two anomalies
        stray.set_key("/readable/busy/stray");
        QVERIFY(etcd::call(etcd_.client(), &etcd::Client::put, stray));

        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/readable/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(test::waitersShown(window, "/readable/busy"), 4, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(test::waitersShown(window, longName) == 0, UiTimeoutMs);

        auto* table = window.findChild<QTableView*>("lockTable");
        auto* proxy = qobject_cast<QAbstractProxyModel*>(table->model());
        QVERIFY(table->isSortingEnabled());
        QVERIFY(table->horizontalHeader()->isSortIndicatorShown());
        QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), int(LockListModel::Name));
        const auto firstListed = [&] {
            return proxy->index(0, LockListModel::Name).data().toString().toStdString();
        };
        QCOMPARE(firstListed(), longName); // "a-lock..." before "busy"
        // A click on the Waiting header sorts by it, as numbers; a second click reverses.
        QHeaderView* header = table->horizontalHeader();
        const QPoint waiting(header->sectionViewportPosition(LockListModel::Waiters) + 10, 5);
        const auto mostWaitingFirst = [&] {
            return header->sortIndicatorOrder() == Qt::DescendingOrder;
        };
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, waiting);
        QCOMPARE(header->sortIndicatorSection(), int(LockListModel::Waiters));
        QCOMPARE(firstListed(), mostWaitingFirst() ? std::string("/readable/busy") : longName);
        const bool before = mostWaitingFirst();
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, waiting);
        QCOMPARE(mostWaitingFirst(), !before);
        QCOMPARE(firstListed(), mostWaitingFirst() ? std::string("/readable/busy") : longName);

        const LockListModel* locks = window.lockWatch()->locks();
        const QModelIndex badge =
            locks->index(locks->rowOfLock("/readable/busy"), LockListModel::Anomalies);
        QCOMPARE(badge.data().toString(), QString("⚠ no lease +1"));
        QVERIFY(badge.data(Qt::ToolTipRole).toString().contains("/readable/busy/stray"));
        // The badge's column shows it whole.
        QVERIFY(table->columnWidth(LockListModel::Anomalies) >
                table->fontMetrics().horizontalAdvance(badge.data().toString()));

        QVERIFY(selectLock(window, longName));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.lockWatch()
                ->queue()
                ->data(window.lockWatch()->queue()->index(0, LockQueueModel::Ttl), TtlGrantedRole)
                .isValid(),
            UiTimeoutMs);
        QVERIFY(saveScreenshot(window, "locks_page_long_key.png"));

        // The filter hides the lock shown: the first it shows takes its place, or none.
        auto* filter = window.findChild<QLineEdit*>("lockFilter");
        filter->setText("BUSY");
        QCOMPARE(proxy->rowCount(), 1);
        QCOMPARE(window.lockWatch()->selectedLock(), std::string("/readable/busy"));
        filter->setText("no such lock");
        QCOMPARE(proxy->rowCount(), 0);
        QCOMPARE(window.lockWatch()->selectedLock(), std::string());
        filter->clear();
        QCOMPARE(proxy->rowCount(), 2);
    }

    // `etcdctl elect` keys read as an election: a leader and candidates with their proposals,
    // not "Holder" and "Fencing token".
    void anElectionShowsItsLeaderCandidatesAndProposals() {
        auto alice = test::etcdctlElect(etcd_.cluster().endpointList(), "/elect/primary", "alice");
        const auto leaderKey = alice->readLine(std::chrono::seconds(15));
        QVERIFY(leaderKey);
        auto bob = test::etcdctlElect(etcd_.cluster().endpointList(), "/elect/primary", "bob");
        startEtcdctlLock("/elect/plain-lock"); // a mutex beside it

        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/elect/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(test::waitersShown(window, "/elect/primary"), 1, UiTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(test::waitersShown(window, "/elect/plain-lock") == 0, UiTimeoutMs);
        const LockListModel* locks = window.lockWatch()->locks();
        const auto kindOf = [&](const std::string& lock) {
            return locks->index(locks->rowOfLock(lock), LockListModel::Kind).data().toString();
        };
        QCOMPARE(kindOf("/elect/primary"), QString("election"));
        QCOMPARE(kindOf("/elect/plain-lock"), QString("mutex"));
        QVERIFY(locks->index(locks->rowOfLock("/elect/primary"), LockListModel::Holder)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("proposing alice"));

        QVERIFY(selectLock(window, "/elect/primary"));
        const LockQueueModel* queue = window.lockWatch()->queue();
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 2, UiTimeoutMs);
        QCOMPARE(queueCell(window, 0, LockQueueModel::Key), QString::fromStdString(*leaderKey));
        QCOMPARE(queueCell(window, 0, LockQueueModel::Position), QString("leader"));
        QCOMPARE(queueCell(window, 0, LockQueueModel::Value), QString("alice"));
        QCOMPARE(queueCell(window, 1, LockQueueModel::Value), QString("bob"));
        auto* queueTable = window.findChild<QTableView*>("queueTable");
        QVERIFY(!queueTable->isColumnHidden(LockQueueModel::Value));
        QVERIFY(queueTable->isColumnHidden(LockQueueModel::Predecessor));
        QCOMPARE(queue->headerData(LockQueueModel::Value, Qt::Horizontal).toString(),
                 QString("Proposal"));

        auto* card = window.findChild<HolderCard*>("holderCard");
        QTRY_COMPARE_WITH_TIMEOUT(card->key(), QString::fromStdString(*leaderKey), UiTimeoutMs);
        const QStringList cardTexts = visibleLabelTexts(*card);
        QVERIFY2(cardTexts.contains("Leader") && cardTexts.contains("Proposal") &&
                     cardTexts.contains("Revision"),
                 qPrintable(cardTexts.join('|')));
        QVERIFY2(!cardTexts.contains("Fencing token") && !cardTexts.contains("Holder"),
                 qPrintable(cardTexts.join('|')));
        QVERIFY(visibleLabelTexts(window).contains("Leader and candidates"));
        QTRY_VERIFY_WITH_TIMEOUT(
            queue->data(queue->index(0, LockQueueModel::Ttl), TtlGrantedRole).isValid(),
            UiTimeoutMs);
        QVERIFY(saveScreenshot(window, "locks_page_election.png"));

        // A mutex reads as one again.
        QVERIFY(selectLock(window, "/elect/plain-lock"));
        QTRY_COMPARE_WITH_TIMEOUT(queueCell(window, 0, LockQueueModel::Position), QString("holder"),
                                  UiTimeoutMs);
        QVERIFY(queueTable->isColumnHidden(LockQueueModel::Value));
        QVERIFY(!queueTable->isColumnHidden(LockQueueModel::Predecessor));
        QVERIFY(visibleLabelTexts(window).contains("Holder and queue"));
        QVERIFY(visibleLabelTexts(*card).contains("Fencing token"));
        alice->signal(SIGINT);
        bob->signal(SIGINT);
    }

    // The RWMutex recipe's readers share, and each waiter says what it waits on.
    void anRwMutexShowsSharingReadersModesAndWhatEachWaitsOn() {
        auto client = etcd::Client::create(etcd_.cluster().clientOptions()).value();
        auto session = etcd::createSession(*client, 30);
        std::vector<std::shared_ptr<etcd::Mutex>> contenders;
        for (auto mode : {etcd::KeyMode::Read, etcd::KeyMode::Read, etcd::KeyMode::Write,
                          etcd::KeyMode::Read}) {
            contenders.push_back(etcd::createLock(*client, session, "/rw/doc", mode));
            contenders.back()->lock([](const etcd::Error&) {});
            QTRY_VERIFY_WITH_TIMEOUT(contenders.back()->state() != etcd::Mutex::State::Acquiring,
                                     UiTimeoutMs); // queue in a known order
        }

        MainWindow window;
        window.connectTo(etcd_.cluster().clientOptions());
        window.setPrefix("/rw/");
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(test::waitersShown(window, "/rw/doc"), 2, UiTimeoutMs);
        const LockListModel* locks = window.lockWatch()->locks();
        QCOMPARE(locks->index(locks->rowOfLock("/rw/doc"), LockListModel::Kind).data().toString(),
                 QString("rwmutex"));
        QVERIFY(selectLock(window, "/rw/doc"));
        const LockQueueModel* queue = window.lockWatch()->queue();
        QTRY_COMPARE_WITH_TIMEOUT(queue->rowCount(), 4, UiTimeoutMs);
        QCOMPARE(queueCell(window, 0, LockQueueModel::Position), QString("holder, read"));
        QCOMPARE(queueCell(window, 1, LockQueueModel::Position), QString("holder, read"));
        QCOMPARE(queueCell(window, 2, LockQueueModel::Position), QString("2, write"));
        QCOMPARE(queueCell(window, 3, LockQueueModel::Position), QString("3, read"));
        QCOMPARE(queueCell(window, 3, LockQueueModel::Predecessor),
                 QString::fromStdString(contenders[2]->key()));
        QVERIFY(queueCell(window, 1, LockQueueModel::Waiting).startsWith("held "));
        QVERIFY(visibleLabelTexts(window).contains("Readers, writers and queue"));
        QVERIFY(saveScreenshot(window, "locks_page_rwmutex.png"));

        // The readers go: the writer holds alone, the last reader waits on it.
        etcd::unlockNow(*contenders[0]);
        etcd::unlockNow(*contenders[1]);
        QTRY_COMPARE_WITH_TIMEOUT(queueCell(window, 0, LockQueueModel::Position),
                                  QString("holder, write"), UiTimeoutMs);
        QCOMPARE(queueCell(window, 1, LockQueueModel::Position), QString("1, read"));
        etcd::unlockNow(*contenders[2]);
        etcd::releaseAndCloseNow(
            [&](std::function<void()> done) {
                contenders[3]->unlock([done = std::move(done)](auto) { done(); });
            },
            *session);
    }

private:
    process::ChildProcess* startEtcdctlLock(const std::string& name,
                                            std::vector<std::string> args = {}) {
        etcdctls_.push_back(
            test::etcdctlLock(etcd_.cluster().endpointList(), name, std::move(args)));
        return etcdctls_.back().get();
    }

    test::LocalEtcd etcd_;
    std::vector<std::unique_ptr<process::ChildProcess>> etcdctls_;
};

LOCKSCOPE_QTEST_MAIN(LocksPageIntegrationTest)
#include "locks_page_integration_test.moc"
