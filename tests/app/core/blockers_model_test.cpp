// BlockersModel over wait-for graphs built from plain queues: well behaved, every wait listed in a
// small tree, and a bounded tree when a few sessions queue in many locks.
#include "app/core/blockers_model.h"
#include "lock_test_data.h"
#include "support/qtest_registry.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lockscope;
using namespace lockscope::test;

namespace {

// `sessions` leases (100, 101, ...) queued in that order in each of `locks` locks.
etcd::WaitForGraph queuedInEveryLock(int locks, int sessions) {
    etcd::LockQueues queues;
    for (int i = 0; i < locks; ++i) {
        const std::string name = "/locks/" + std::to_string(1000 + i);
        queues.emplace(name, lockQueue(name, sessions - 1));
    }
    return etcd::WaitForGraph::of(queues);
}

// Lease 100 holds /a/<i> and waits in /b/<i>; lease 101 the other way round, for each i.
etcd::WaitForGraph deadlockedInEveryLock(int pairs) {
    etcd::LockQueues queues;
    for (int i = 0; i < pairs; ++i) {
        const std::string a = "/a/" + std::to_string(1000 + i),
                          b = "/b/" + std::to_string(1000 + i);
        etcd::LockQueue first = lockQueue(a, 1, 100), second = lockQueue(b, 1, 100);
        std::swap(second.keys[0].key, second.keys[1].key); // 101 holds b: its key comes first
        std::swap(second.keys[0].lease, second.keys[1].lease);
        queues.emplace(a, std::move(first));
        queues.emplace(b, std::move(second));
    }
    return etcd::WaitForGraph::of(queues);
}

// Every row under `parent`, and theirs.
int rowsUnder(const QAbstractItemModel& model, const QModelIndex& parent = {}) {
    int rows = model.rowCount(parent);
    for (int row = 0; row < model.rowCount(parent); ++row)
        rows += rowsUnder(model, model.index(row, 0, parent));
    return rows;
}

} // namespace

class BlockersModelTest : public QObject {
    Q_OBJECT
private slots:
    void isAWellBehavedModel() {
        BlockersModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.refresh(queuedInEveryLock(3, 4), WallEpoch);
        model.refresh(queuedInEveryLock(300, 10), WallEpoch);
        model.refresh(queuedInEveryLock(300, 10), WallEpoch + std::chrono::seconds(1));
        model.refresh(deadlockedInEveryLock(150), WallEpoch);
        model.refresh({}, WallEpoch);
        QCOMPARE(model.rowCount(), 0);
    }

    // Three locks of four sessions: 100 holds them all, 101 waits on it in each, and so on.
    void aSmallTreeListsEveryWait() {
        BlockersModel model;
        model.refresh(queuedInEveryLock(3, 4), WallEpoch);
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex root = model.index(0, 0);
        QCOMPARE(root.data(BlockersModel::LeaseRole).toLongLong(), 100);
        QCOMPARE(model.rowCount(root), 3); // 101 in each lock
        const QModelIndex first = model.index(0, 0, root);
        QCOMPARE(first.data(BlockersModel::LeaseRole).toLongLong(), 101);
        QCOMPARE(model.rowCount(first), 3); // 102 in each lock, under 101's first row
        QCOMPARE(rowsUnder(model), 1 + 3 * 3);
    }

    // Ten sessions in each of 1,000 locks are 9,000 waits behind lease 100: each row lists its
    // first MaxRowsUnder, and one more row counts the rest.
    void aRowListsItsFirstWaitsAndCountsTheRest() {
        BlockersModel model;
        model.refresh(queuedInEveryLock(1000, 10), WallEpoch);
        QCOMPARE(model.rowCount(), 1);
        const int listed = static_cast<int>(BlockersModel::MaxRowsUnder);
        QModelIndex under = model.index(0, 0);
        for (qint64 lease = 101; lease <= 109; ++lease) {
            QCOMPARE(model.rowCount(under), listed + 1);
            const QModelIndex rest = model.index(listed, BlockersModel::Session, under);
            QCOMPARE(rest.data(BlockersModel::UnlistedRole).toULongLong(), 900ull);
            QVERIFY2(rest.data().toString().contains(QStringLiteral("900")),
                     qPrintable(rest.data().toString()));
            QVERIFY(!rest.data(BlockersModel::LeaseRole).isValid());
            QCOMPARE(model.rowCount(rest.siblingAtColumn(0)), 0);
            under = model.index(0, 0, under);
            QCOMPARE(under.data(BlockersModel::LeaseRole).toLongLong(), lease);
        }
        QCOMPARE(rowsUnder(model), 1 + 9 * (listed + 1));
        QCOMPARE(model.unlistedRows().size(), std::size_t(9));
        for (const QModelIndex& row : model.unlistedRows())
            QCOMPARE(row.data(BlockersModel::UnlistedRole).toULongLong(), 900ull);
        // The root's own row still counts every session it blocks.
        QVERIFY(model.index(0, BlockersModel::Blocks).data().toString().startsWith("9 "));
    }

    // Two sessions deadlocked in each of 150 pairs of locks: 300 waits close the cycle, the
    // first MaxRowsUnder listed under the deadlock's row.
    void aDeadlocksWaitsAreListedUpToTheBoundToo() {
        BlockersModel model;
        model.refresh(deadlockedInEveryLock(150), WallEpoch);
        QCOMPARE(model.deadlockCount(), std::size_t(1));
        const QModelIndex cycle = model.index(0, 0);
        QVERIFY(cycle.data(BlockersModel::DeadlockRole).toBool());
        const int listed = static_cast<int>(BlockersModel::MaxRowsUnder);
        QCOMPARE(model.rowCount(cycle), listed + 1);
        QCOMPARE(model.index(listed, 0, cycle).data(BlockersModel::UnlistedRole).toULongLong(),
                 300ull - BlockersModel::MaxRowsUnder);
    }

    // The same tree again: only the waiting times moved, said once for the rows under each row.
    void theSameTreeAgainSaysOnlyThatTheWaitingTimesMoved() {
        BlockersModel model;
        const etcd::WaitForGraph graph = queuedInEveryLock(1000, 10);
        QVERIFY(model.refresh(graph, WallEpoch));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(!model.refresh(graph, WallEpoch + std::chrono::seconds(1)));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 9); // the rows under 100, and under the first rows of 101-108
        for (const QList<QVariant>& signal : changed) {
            const QModelIndex from = signal[0].toModelIndex(), to = signal[1].toModelIndex();
            QCOMPARE(from.parent(), to.parent());
            QCOMPARE(from.column(), int(BlockersModel::Waiting));
            QCOMPARE(to.row(), model.rowCount(from.parent()) - 1);
        }
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(BlockersModelTest)
#include "blockers_model_test.moc"
