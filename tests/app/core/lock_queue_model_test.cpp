// LockQueueModel over plain queues: well behaved, incremental, and fast with ten thousand
// waiters; and the columns lockscopectl's snapshot table adds.
#include "app/core/lock_queue_model.h"
#include "lock_test_data.h"
#include "support/qtest_registry.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace lockscope;
using namespace lockscope::test;
using namespace std::chrono_literals;

class LockQueueModelTest : public QObject {
    Q_OBJECT
private slots:
    void isAWellBehavedModel() {
        LockQueueModel model;
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

    // This window's own key says so in its row, holding or waiting, and only while it is set.
    void ourOwnRowSaysSo() {
        LockQueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 2);
        model.setQueue(&queue, {}, Epoch, WallEpoch);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setOwnKey(queue.keys[1].key);
        QCOMPARE(changed.size(), 1);
        const auto position = [&model](int row) {
            return model.index(row, LockQueueModel::Position).data().toString();
        };
        QCOMPARE(position(0), QString("holder"));
        QCOMPARE(position(1), QString("1 (ours)"));
        QCOMPARE(position(2), QString("2"));
        model.setOwnKey(queue.keys[0].key);
        QCOMPARE(position(0), QString("holder (ours)"));
        QCOMPARE(position(1), QString("1"));
        model.setOwnKey({});
        QCOMPARE(position(0), QString("holder"));
    }

    void showsPositionsPredecessorsAndClocks() {
        LockQueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 2);
        queue.keys[0].acquiredAt = WallEpoch + 2s;
        std::map<int64_t, etcd::LeaseTtl> leases{{101, leaseTtl(40, 60)}};
        model.setQueue(&queue, leases, Epoch + 5s, WallEpoch + 5s);
        auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.data(model.index(row, column), role);
        };
        QCOMPARE(cell(0, LockQueueModel::Position).toString(), QString("holder"));
        QCOMPARE(cell(2, LockQueueModel::Position).toString(), QString("2"));
        QCOMPARE(cell(1, LockQueueModel::Key).toString(), QString("/locks/a/65"));
        QCOMPARE(cell(1, LockQueueModel::Lease).toString(), QString("65"));
        QCOMPARE(cell(1, LockQueueModel::CreateRevision).toLongLong(), 101);
        QCOMPARE(cell(1, LockQueueModel::Ttl).toString(), QString("35 s"));
        QCOMPARE(cell(1, LockQueueModel::Ttl, TtlRemainingRole).toDouble(), 35.0);
        QVERIFY(!cell(2, LockQueueModel::Ttl).isValid()); // not looked up yet
        QCOMPARE(cell(0, LockQueueModel::Waiting).toString(), QString("held 3.0 s"));
        QCOMPARE(cell(2, LockQueueModel::Waiting).toString(), QString("5.0 s"));
        QCOMPARE(cell(2, LockQueueModel::Predecessor).toString(), QString("/locks/a/65"));
        QCOMPARE(cell(0, LockQueueModel::Predecessor).toString(), QString());
    }

    // A TTL looked up too long ago does not count down (to a red "0 s") as if current.
    void aStaleTtlIsShownStaleWithoutACountdown() {
        LockQueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 1);
        etcd::LeaseTtl ttl = leaseTtl(1, 2);
        ttl.stale = true;
        std::map<int64_t, etcd::LeaseTtl> leases{{100, ttl}};
        model.setQueue(&queue, leases, Epoch + 3s, WallEpoch + 3s);
        auto cell = [&](int role) { return model.data(model.index(0, LockQueueModel::Ttl), role); };
        QCOMPARE(cell(Qt::DisplayRole).toString(), QString("stale"));
        QVERIFY(!cell(TtlRemainingRole).isValid()); // drawn as text, not as a bar running out
        QVERIFY(cell(Qt::ToolTipRole).toString().contains("last looked up 3 s ago"));
        leases[100].stale = false; // looked up again
        model.setQueue(&queue, leases, Epoch + 3s, WallEpoch + 3s);
        QCOMPARE(cell(Qt::DisplayRole).toString(), QString("0 s"));
    }

    // A key there before LockScope looked shows how long since we saw it as a lower bound.
    void timesBeganBeforeWeSawTheKeyAreLowerBoundsWithTheReason() {
        LockQueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 2);
        queue.keys[0].acquiredAt = WallEpoch;
        queue.keys[0].enqueuedBeforeSeen = queue.keys[0].acquiredBeforeSeen = true;
        queue.keys[1].enqueuedBeforeSeen = true; // keys[2] was seen to arrive
        model.setQueue(&queue, {}, Epoch + 125s, WallEpoch + 125s);
        auto cell = [&](int row, int role = Qt::DisplayRole) {
            return model.data(model.index(row, LockQueueModel::Waiting), role);
        };
        QCOMPARE(cell(0).toString(), QString("held ≥ 2 min 05 s"));
        QCOMPARE(cell(1).toString(), QString("≥ 2 min 05 s"));
        QCOMPARE(cell(2).toString(), QString("2 min 05 s"));
        QVERIFY2(cell(0, Qt::ToolTipRole)
                     .toString()
                     .contains("already held the lock when "
                               "LockScope first saw it"),
                 qPrintable(cell(0, Qt::ToolTipRole).toString()));
        QVERIFY(cell(1, Qt::ToolTipRole).toString().contains("waited at least this long"));
        QVERIFY(!cell(2, Qt::ToolTipRole).isValid());
        QCOMPARE(model.ageText(0), QString("≥ 2 min 05 s"));
        QVERIFY(model.ageIsLowerBound(0));
        QVERIFY(!model.ageIsLowerBound(2));
    }

    // An election's keys read as a leader and candidates with their proposals.
    void anElectionReadsAsALeaderAndCandidatesWithTheirProposals() {
        LockQueueModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        etcd::LockQueue mutex = lockQueue("/locks/m", 1);
        model.setQueue(&mutex, {}, Epoch, WallEpoch);
        QCOMPARE(model.kind(), etcd::QueueKind::Mutex);
        QCOMPARE(model.index(0, LockQueueModel::Position).data().toString(), QString("holder"));
        QCOMPARE(model.index(0, LockQueueModel::Kind).data().toString(), QString("mutex"));

        etcd::LockQueue election = lockQueue("/elect/e", 1);
        election.keys[0].value = "alice";
        election.keys[1].value = "bob";
        election.keys[0].acquiredAt = WallEpoch;
        QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
        model.setQueue(&election, {}, Epoch + 2s, WallEpoch + 2s);
        QCOMPARE(model.kind(), etcd::QueueKind::Election);
        QCOMPARE(headers.count(), 1);
        const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
            return model.index(row, column).data(role).toString();
        };
        const auto header = [&](int column) {
            return model.headerData(column, Qt::Horizontal).toString();
        };
        QCOMPARE(cell(0, LockQueueModel::Position), QString("leader"));
        QCOMPARE(cell(0, LockQueueModel::Waiting), QString("leading 2.0 s"));
        QCOMPARE(cell(0, LockQueueModel::Value), QString("alice"));
        QCOMPARE(cell(1, LockQueueModel::Value), QString("bob"));
        QCOMPARE(cell(1, LockQueueModel::Kind), QString("election"));
        QVERIFY(!cell(0, LockQueueModel::CreateRevision, Qt::ToolTipRole).contains("Fencing"));
        QCOMPARE(header(LockQueueModel::Value), QString("Proposal"));
        QCOMPARE(header(LockQueueModel::Waiting), QString("Candidate for"));

        model.setQueue(&mutex, {}, Epoch, WallEpoch); // and back
        QCOMPARE(headers.count(), 2);
        QCOMPARE(header(LockQueueModel::Waiting), QString("Waiting for"));
        QCOMPARE(cell(0, LockQueueModel::Position), QString("holder"));
    }

    // The RWMutex recipe's readers share, and a reader waits on the nearest writer.
    void anRwMutexShowsModesSharingHoldersAndWhatEachWaitsOn() {
        LockQueueModel model;
        etcd::LockQueue queue = lockQueue("/rw", 3);
        const etcd::KeyMode modes[] = {etcd::KeyMode::Read, etcd::KeyMode::Read,
                                       etcd::KeyMode::Write, etcd::KeyMode::Read};
        for (std::size_t i = 0; i < queue.keys.size(); ++i) {
            queue.keys[i].mode = modes[i];
            queue.keys[i].key = std::string("/rw/") + etcd::keyModeName(modes[i]) + "/" +
                                std::to_string(1795530066567608000 + i);
        }
        queue.keys[0].acquiredAt = WallEpoch + 1s;
        queue.keys[1].acquiredAt = WallEpoch + 2s;
        model.setQueue(&queue, {}, Epoch + 5s, WallEpoch + 5s);
        auto cell = [&](int row, int column) {
            return model.data(model.index(row, column)).toString();
        };
        QCOMPARE(model.kind(), etcd::QueueKind::RwMutex);
        QCOMPARE(cell(0, LockQueueModel::Position), QString("holder, read"));
        QCOMPARE(cell(1, LockQueueModel::Position), QString("holder, read"));
        QCOMPARE(cell(2, LockQueueModel::Position), QString("2, write"));
        QCOMPARE(cell(3, LockQueueModel::Position), QString("3, read"));
        QCOMPARE(cell(1, LockQueueModel::Waiting), QString("held 3.0 s"));
        QCOMPARE(cell(1, LockQueueModel::Predecessor), QString());
        QCOMPARE(cell(2, LockQueueModel::Predecessor), QString::fromStdString(queue.keys[1].key));
        QCOMPARE(cell(3, LockQueueModel::Predecessor), QString::fromStdString(queue.keys[2].key));
        QCOMPARE(cell(0, LockQueueModel::Kind), QString("rwmutex"));
    }

    void namesTheLockAndCountsTheGrantedTtlDownLocally() {
        LockQueueModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        etcd::LockQueue queue;
        queue.name = "/l";
        queue.keys = {{"/l/a", 0xa, 5, 5, "", {}, {}}, {"/l/b", 0xb, 6, 6, "", {}, {}}};
        std::map<int64_t, etcd::LeaseTtl> leases{{0xa, leaseTtl(10, 10)}};
        model.setQueue(&queue, leases, Epoch + 3500ms, WallEpoch);
        QCOMPARE(model.rowCount(), 2);
        auto cell = [&](int row, int column) {
            return model.data(model.index(row, column)).toString();
        };
        QCOMPARE(cell(0, LockQueueModel::Position), QString("holder"));
        QCOMPARE(cell(1, LockQueueModel::Position), QString("1"));
        QCOMPARE(cell(1, LockQueueModel::Predecessor), QString("/l/a"));
        QCOMPARE(cell(0, LockQueueModel::Lock), QString("/l"));
        QCOMPARE(cell(1, LockQueueModel::Lock), QString("/l"));
        QCOMPARE(cell(0, LockQueueModel::Ttl), QString("7 s")); // counted down locally
        QCOMPARE(cell(0, LockQueueModel::GrantedTtl), QString("10 s"));
        QCOMPARE(cell(1, LockQueueModel::Ttl), QString()); // not looked up yet
        QCOMPARE(cell(1, LockQueueModel::GrantedTtl), QString());
        QCOMPARE(model.headerData(LockQueueModel::GrantedTtl, Qt::Horizontal).toString(),
                 QString("Granted"));
        model.setQueue(nullptr, leases, Epoch + 3500ms, WallEpoch);
        QCOMPARE(model.rowCount(), 0);
    }

    void aNewWaiterIsOneInsertedRow() {
        LockQueueModel model;
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
        LockQueueModel model;
        etcd::LockQueue queue = lockQueue("/locks/a", 3);
        model.setQueue(&queue, {}, Epoch, WallEpoch);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.tick(Epoch + 1s, WallEpoch + 1s);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed[0][0].toModelIndex(), model.index(0, LockQueueModel::Ttl));
        QCOMPARE(changed[0][1].toModelIndex(), model.index(3, LockQueueModel::Waiting));
    }

    void aKeyPutAgainIsANewEntry() {
        LockQueueModel model;
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
        QCOMPARE(model.data(model.index(0, LockQueueModel::Position)).toString(),
                 QString("holder"));
    }

    void tenThousandWaitersUpdateIncrementally() {
        LockQueueModel model;
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

LOCKSCOPE_QTEST_GUILESS_MAIN(LockQueueModelTest)
#include "lock_queue_model_test.moc"
