// The Blockers page against a real etcd: a deadlock laid out as two sessions leave it reaches
// the problems signal within about a second while the page is hidden, and the page's tree and
// drawing once it is shown; its Break revokes the lease it names
// through the confirmation, and the page and the signal then say it ended. A session selected is
// marked on the Locks page's models and the Stage's scene until Unmark.
#include "app/core/blockers_model.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/picked_session_role.h"
#include "app/core/workspace.h"
#include "app/gui/blockers_page.h"
#include "app/gui/stage_scene_builder.h"
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "support/local_etcd.h"
#include "support/qtest_registry.h"
#include "widgets/wait_graph_view.h"

#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTreeView>
#include <QtTest>

using namespace lockscope;

class BlockersPageIntegrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(etcd_.start(), etcd_.error().c_str()); }
    void cleanupTestCase() { etcd_.stop(); }

    void aDeadlockIsShownAndBrokenByRevokingTheLeaseItNames() {
        Workspace workspace(etcd_.client().options());
        workspace.lockWatch()->setPrefix("/bp/");
        BlockersPage page;
        QSignalSpy began(&page, &BlockersPage::deadlockBegan);
        QSignalSpy ended(&page, &BlockersPage::deadlockEnded);
        page.setWorkspace(&workspace);

        // a holds /bp/1 and waits for /bp/2, b the other way round; c waits behind b in /bp/1.
        const int64_t a = grant(), b = grant(), c = grant();
        put("/bp/1", a);
        put("/bp/2", b);
        put("/bp/2", a);
        QElapsedTimer sinceClosed;
        put("/bp/1", b);
        sinceClosed.start();
        put("/bp/1", c);
        QTRY_COMPARE_WITH_TIMEOUT(began.size(), 1, 5000);
        qInfo("deadlock shown %lld ms after the key that closed it", sinceClosed.elapsed());
        QVERIFY2(sinceClosed.elapsed() < 2500, "a deadlock must show within about a second");
        // The page is hidden (another tab): the deadlock was found, but the tree and its drawing
        // wait to be shown (built each second, they kept the GUI thread busy).
        QCOMPARE(page.model()->rowCount(), 0);
        QCOMPARE(page.graphView()->nodeCount(), 0);
        page.resize(1200, 500);
        page.show();
        QCOMPARE(page.model()->deadlockCount(), std::size_t(1));
        QVERIFY2(page.summary().contains("3 session"), qPrintable(page.summary()));
        const QModelIndex cycle = page.model()->index(0, BlockersModel::Session);
        QVERIFY(cycle.data(BlockersModel::DeadlockRole).toBool());
        QCOMPARE(page.model()->rowCount(cycle), 2);
        const qint64 named = cycle.data(BlockersModel::BreakLeaseRole).toLongLong();
        QVERIFY(named == a || named == b);
        // The drawing: the two of the deadlock, and c, blocked by it for good.
        QCOMPARE(page.graphView()->nodeCount(), 3);

        const QString dir = qEnvironmentVariable("LOCKSCOPE_ARTIFACTS_DIR", QT_TESTCASE_BUILDDIR);
        QDir().mkpath(dir);
        QVERIFY(page.grab().save(dir + "/blockers_page.png"));

        // Break: the confirmation names the lease, and Revoke revokes that one.
        auto* view = page.findChild<QTreeView*>("blockersView");
        QVERIFY(view);
        view->setCurrentIndex(cycle);
        QString asked;
        QTimer::singleShot(200, this, [&asked] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box);
            asked = box->text();
            for (QAbstractButton* button : box->buttons())
                if (box->buttonRole(button) == QMessageBox::DestructiveRole)
                    button->click();
        });
        page.breakSelectedDeadlock();
        QVERIFY2(asked.contains(QString::fromStdString(etcd::leaseHex(named))), qPrintable(asked));
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 5000);
        QCOMPARE(page.model()->deadlockCount(), std::size_t(0));
        QCOMPARE(keysOfLease("/bp/", named), 0);
        QCOMPARE(keysOfLease("/bp/", named == a ? b : a), 2); // the other session holds both
        revoke(a);
        revoke(b);
        revoke(c);
    }

    void aSelectedSessionIsMarkedOnTheLocksPageAndTheStage() {
        Workspace workspace(etcd_.client().options());
        LockWatch* watch = workspace.lockWatch();
        watch->setPrefix("/pick/");
        BlockersPage page;
        page.show(); // its tree is kept up to date while shown
        page.setWorkspace(&workspace);
        auto* view = page.findChild<QTreeView*>("blockersView");
        auto* unmark = page.findChild<QPushButton*>("unmarkSessionButton");
        QVERIFY(view && unmark);
        QVERIFY(!unmark->isEnabled());

        // s1 holds x; s2 waits in x and holds y; s3 waits in y and alone holds z.
        const int64_t s1 = grant(), s2 = grant(), s3 = grant();
        put("/pick/x", s1);
        put("/pick/y", s2);
        put("/pick/x", s2);
        put("/pick/y", s3);
        put("/pick/z", s3);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rootCount(), std::size_t(1), 5000);
        const QModelIndexList rows =
            page.model()->match(page.model()->index(0, 0), BlockersModel::LeaseRole,
                                static_cast<qint64>(s2), 1, Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(rows.size(), 1);
        view->setCurrentIndex(rows.front());
        QVERIFY(watch->pickedSession());
        QCOMPARE(watch->pickedSession()->lease, s2);
        QVERIFY(unmark->isEnabled());

        // The lock list: the locks s2 waits in and blocks, not z (s3's alone).
        QCOMPARE(markedLocks(*watch), QStringList({"/pick/x", "/pick/y"}));
        // The queue of x: s2's key, not s1's.
        watch->selectLock("/pick/x");
        QCOMPARE(watch->queue()->rowCount(), 2);
        QVERIFY(!watch->queue()->index(0, 0).data(PickedSessionRole).toBool());
        QVERIFY(watch->queue()->index(1, 0).data(PickedSessionRole).toBool());
        // The Stage: s2's two keys ringed, no other.
        int ringed = 0;
        const StageScene scene = stageSceneOf(watch->state(), {}, 100, watch->pickedSession());
        for (const StageLane& lane : scene.lanes)
            for (const StageToken& token : lane.tokens)
                if (token.picked) {
                    ++ringed;
                    QVERIFY2(token.key.endsWith(QString::fromStdString(etcd::leaseHex(s2))),
                             qPrintable(token.key));
                }
        QCOMPARE(ringed, 2);

        // A change that resets the tree keeps the pick, and its row current.
        const int64_t s4 = grant();
        put("/pick/x", s4);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rootCount(), std::size_t(1), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(view->currentIndex().isValid(), 5000);
        QCOMPARE(view->currentIndex().data(BlockersModel::LeaseRole).toLongLong(), s2);
        QCOMPARE(watch->pickedSession()->lease, s2);

        // The marks follow the graph: with s3 gone nobody waits in y, which s2 holds alone.
        revoke(s3);
        QTRY_COMPARE_WITH_TIMEOUT(markedLocks(*watch), QStringList({"/pick/x"}), 5000);

        unmark->click();
        QVERIFY(!watch->pickedSession());
        QCOMPARE(markedLocks(*watch), QStringList());
        QVERIFY(!watch->queue()->index(0, 0).data(PickedSessionRole).toBool());
        QVERIFY(!unmark->isEnabled());
        for (int64_t lease : {s1, s2, s4})
            revoke(lease);
    }

    // Past the most waits the window follows, the page says so and points to the command; below
    // it again, the graph is built from every lock and the page answers as before.
    void tooManyWaitsAreSaidAndFollowedAgainOnceFewer() {
        Workspace workspace(etcd_.client().options());
        LockWatch* watch = workspace.lockWatch();
        watch->setMaxGraphWaits(1);
        watch->setPrefix("/many/");
        BlockersPage page;
        page.show(); // its tree is kept up to date while shown
        page.setWorkspace(&workspace);
        const int64_t s1 = grant(), s2 = grant(), s3 = grant();
        put("/many/x", s1);
        put("/many/x", s2);
        put("/many/x", s3); // two waiting: past the cap of 1
        QTRY_VERIFY_WITH_TIMEOUT(page.summary().contains("too many"), 5000);
        QVERIFY2(page.summary().contains("lockscopectl blockers /many/"),
                 qPrintable(page.summary()));
        QVERIFY(!watch->graphKept());
        QCOMPARE(watch->waitForGraph().sessionsWaiting(), std::size_t(0));
        QCOMPARE(page.model()->rootCount(), std::size_t(0));

        watch->setMaxGraphWaits(10);
        put("/many/y", s1); // a change: the next drain builds the graph again
        QTRY_VERIFY_WITH_TIMEOUT(watch->graphKept(), 5000);
        QCOMPARE(watch->waitForGraph().sessionsWaiting(), std::size_t(2));
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rootCount(), std::size_t(1), 5000);
        QVERIFY2(!page.summary().contains("too many"), qPrintable(page.summary()));
        for (int64_t lease : {s1, s2, s3})
            revoke(lease);
    }

    // A session waiting on another in many locks: one arrow between their boxes, whose tooltip
    // counts the locks, and a tree that lists the first waits and counts the rest, on a row that
    // picks no session.
    void aSessionWaitingInManyLocksIsOneArrowAndItsWaitsAreListedUpToABound() {
        Workspace workspace(etcd_.client().options());
        LockWatch* watch = workspace.lockWatch();
        watch->setPrefix("/wide/");
        BlockersPage page;
        page.resize(1200, 500);
        page.show();
        page.setWorkspace(&workspace);
        const int64_t holder = grant(), waiter = grant();
        const int locks = static_cast<int>(BlockersModel::MaxRowsUnder) + 50;
        for (int i = 0; i < locks; ++i)
            put("/wide/" + std::to_string(1000 + i), holder);
        for (int i = 0; i < locks; ++i)
            put("/wide/" + std::to_string(1000 + i), waiter);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rootCount(), std::size_t(1), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(page.model()->index(0, 0)),
                                  int(BlockersModel::MaxRowsUnder) + 1, 5000);
        const QModelIndex root = page.model()->index(0, 0);
        const QModelIndex rest = page.model()->index(int(BlockersModel::MaxRowsUnder), 0, root);
        QCOMPARE(rest.data(BlockersModel::UnlistedRole).toULongLong(), 50ull);
        QCOMPARE(page.graphView()->nodeCount(), 2);
        QCOMPARE(page.graphView()->edges().size(), std::size_t(1));
        QCOMPARE(page.graphView()->edges().front().lock,
                 QStringLiteral("/wide/1000 and %1 more lock(s)").arg(locks - 1));

        auto* view = page.findChild<QTreeView*>("blockersView");
        QVERIFY(view);
        // Its one text spans the row.
        QVERIFY(view->isFirstColumnSpanned(int(BlockersModel::MaxRowsUnder), root));
        QVERIFY(!view->isFirstColumnSpanned(0, root));
        view->setCurrentIndex(page.model()->index(0, 0, root));
        QCOMPARE(watch->pickedSession()->lease, waiter);
        view->setCurrentIndex(rest);
        QCOMPARE(watch->pickedSession()->lease, waiter); // the counting row picks nobody
        for (int64_t lease : {holder, waiter})
            revoke(lease);
    }

private:
    static QStringList markedLocks(const LockWatch& watch) {
        QStringList marked;
        for (int row = 0; row < watch.locks()->rowCount(); ++row)
            if (watch.locks()->index(row, 0).data(PickedSessionRole).toBool())
                marked << QString::fromStdString(watch.locks()->lockNameAt(row));
        return marked;
    }
    int64_t grant() {
        etcd::pb::LeaseGrantRequest request;
        request.set_ttl(60);
        const auto lease = etcd::call(etcd_.client(), &etcd::Client::leaseGrant, request);
        return lease ? lease->id() : 0;
    }
    void revoke(int64_t lease) {
        etcd::pb::LeaseRevokeRequest request;
        request.set_id(lease);
        etcd::call(etcd_.client(), &etcd::Client::leaseRevoke, request);
    }
    void put(const std::string& lock, int64_t lease) {
        etcd::pb::PutRequest request;
        request.set_key(lock + "/" + etcd::leaseHex(lease));
        request.set_lease(lease);
        QVERIFY(etcd::call(etcd_.client(), &etcd::Client::put, request));
    }
    int keysOfLease(const std::string& prefix, int64_t lease) {
        etcd::pb::RangeRequest request;
        request.set_key(prefix);
        request.set_range_end(etcd::prefixRangeEnd(prefix));
        const auto got = etcd::call(etcd_.client(), &etcd::Client::range, request);
        int count = 0;
        if (got)
            for (const auto& kv : got->kvs())
                count += kv.lease() == lease ? 1 : 0;
        return count;
    }

    test::LocalEtcd etcd_;
};

LOCKSCOPE_QTEST_MAIN(BlockersPageIntegrationTest)
#include "blockers_page_integration_test.moc"
