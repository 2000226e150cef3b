// QueueModel over plain queues: well behaved, incremental, and fast with ten thousand waiters.
#include "app/core/queue_model.h"
#include "lock_test_data.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace lockscope;
using namespace lockscope::test;
using namespace std::chrono_literals;

class QueueModelTest : public QObject {
    Q_OBJECT
private slots:
    void isAWellBehavedModel() {
        QueueModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        etcd::LockQueue queue = lockQueue("/locks/a", 4);
        std::map<int64_t, etcd::LeaseTtl> leases{{100, leaseTtl(10)}, {102, leaseTtl(50)}};
        model.setQueue(&queue, leases, Epoch, WallEpoch);
        queue.keys.erase(queue.keys.begin()); // the holder goes, the next one holds
        queue.keys.push_back(lockKey("/locks/a", 500, 500));
        model.setQueue(&queue, leases, Epoch, WallEpoch);
        model.tick(Epoch + 1s, WallEpoch + 1s);
        model.setQueue(nullptr, leases);
        QCOMPARE(model.rowCount(), 0);
    }

    void showsPositionsPredecessorsAndClocks() {
        QueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 2);
        queue.keys[0].acquiredAt = WallEpoch + 2s;
        std::map<int64_t, etcd::LeaseTtl> leases{{101, leaseTtl(40, 60)}};
        model.setQueue(&queue, leases, Epoch + 5s, WallEpoch + 5s);
        auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.data(model.index(row, column), role);
        };
        QCOMPARE(cell(0, QueueModel::Position).toString(), QString("holder"));
        QCOMPARE(cell(2, QueueModel::Position).toString(), QString("2"));
        QCOMPARE(cell(1, QueueModel::Key).toString(), QString("/locks/a/65"));
        QCOMPARE(cell(1, QueueModel::Lease).toString(), QString("65"));
        QCOMPARE(cell(1, QueueModel::CreateRevision).toLongLong(), 101);
        QCOMPARE(cell(1, QueueModel::Ttl).toString(), QString("35 s"));
        QCOMPARE(cell(1, QueueModel::Ttl, TtlRemainingRole).toDouble(), 35.0);
        QVERIFY(!cell(2, QueueModel::Ttl).isValid()); // not looked up yet
        QCOMPARE(cell(0, QueueModel::Waiting).toString(), QString("held 3.0 s"));
        QCOMPARE(cell(2, QueueModel::Waiting).toString(), QString("5.0 s"));
        QCOMPARE(cell(2, QueueModel::Predecessor).toString(), QString("/locks/a/65"));
        QCOMPARE(cell(0, QueueModel::Predecessor).toString(), QString());
    }

    void aNewWaiterIsOneInsertedRow() {
        QueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 3);
        model.setQueue(&queue, {}, Epoch, WallEpoch);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        queue.keys.push_back(lockKey("/locks/a", 900, 900));
        model.setQueue(&queue, {}, Epoch, WallEpoch);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted[0][1].toInt(), 4);
        QCOMPARE(inserted[0][2].toInt(), 4);
    }

    void aTickChangesTheClockColumnsOnly() {
        QueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 3);
        model.setQueue(&queue, {}, Epoch, WallEpoch);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.tick(Epoch + 1s, WallEpoch + 1s);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed[0][0].toModelIndex(), model.index(0, QueueModel::Ttl));
        QCOMPARE(changed[0][1].toModelIndex(), model.index(3, QueueModel::Waiting));
    }

    void aKeyPutAgainIsANewEntry() {
        QueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 2);
        model.setQueue(&queue, {}, Epoch, WallEpoch);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        // The holder releases and locks again with the same lease: same key, new revision, last.
        etcd::LockKey again = queue.keys.front();
        again.createRevision = 700;
        queue.keys.erase(queue.keys.begin());
        queue.keys.push_back(again);
        model.setQueue(&queue, {}, Epoch, WallEpoch);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.entryAt(2).createRevision, 700);
        QCOMPARE(model.data(model.index(0, QueueModel::Position)).toString(), QString("holder"));
    }

    void tenThousandWaitersUpdateIncrementally() {
        QueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/big", 10000);
        std::map<int64_t, etcd::LeaseTtl> leases;
        for (const etcd::LockKey& key : queue.keys)
            leases[key.lease] = leaseTtl(60);
        QElapsedTimer timer;
        timer.start();
        model.setQueue(&queue, leases, Epoch, WallEpoch);
        QCOMPARE(model.rowCount(), 10001);

        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        queue.keys.erase(queue.keys.begin() + 5000);
        queue.keys.push_back(lockKey("/locks/big", 50000, 50000));
        model.setQueue(&queue, leases, Epoch, WallEpoch);
        model.tick(Epoch + 1s, WallEpoch + 1s);
        qInfo("10k waiters: first load, one removal, one insertion and a tick in %lld ms",
              timer.elapsed());
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed[0][1].toInt(), 5000);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted[0][1].toInt(), 10000);
        QCOMPARE(model.rowCount(), 10001);
        QCOMPARE(model.entryAt(10000).createRevision, 50000);
    }
};

QTEST_GUILESS_MAIN(QueueModelTest)
#include "queue_model_test.moc"
