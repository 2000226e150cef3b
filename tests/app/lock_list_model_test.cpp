// LockListModel over plain monitor states: a well-behaved model, updated in place.
#include "app/core/lock_list_model.h"
#include "lock_test_data.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lockscope;
using namespace lockscope::test;

class LockListModelTest : public QObject {
    Q_OBJECT
private slots:
    void isAWellBehavedModel() {
        LockListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        etcd::LockMonitorState state;
        state.locks["/locks/a"] = lockQueue("/locks/a", 2);
        state.locks["/locks/c"] = lockQueue("/locks/c", 0, 200);
        model.setState(state, Epoch);
        state.locks["/locks/b"] = lockQueue("/locks/b", 5, 300);
        state.locks.erase("/locks/a");
        model.setState(state, Epoch);
        model.tick(Epoch + std::chrono::seconds(1));
        model.setState({}, Epoch);
        QCOMPARE(model.rowCount(), 0);
    }

    void showsHolderWaitersTtlAndAnomalies() {
        LockListModel model;
        etcd::LockMonitorState state;
        state.locks["/locks/a"] = lockQueue("/locks/a", 3);
        state.leases[100] = leaseTtl(30, 60);
        state.anomalies.push_back(
            {"/locks/a/beef", etcd::AnomalyKind::NoLease, "no lease: blocks the queue forever"});
        model.setState(state, Epoch + std::chrono::milliseconds(10500));
        QCOMPARE(model.rowCount(), 1);
        auto cell = [&](int column, int role = Qt::DisplayRole) {
            return model.data(model.index(0, column), role);
        };
        QCOMPARE(cell(LockListModel::Name).toString(), QString("/locks/a"));
        QCOMPARE(cell(LockListModel::Holder).toString(), QString("/locks/a/64"));
        QCOMPARE(cell(LockListModel::Waiters).toInt(), 3);
        QCOMPARE(cell(LockListModel::Ttl).toString(), QString("20 s"));
        QCOMPARE(cell(LockListModel::Ttl, TtlGrantedRole).toLongLong(), 60);
        QVERIFY(cell(LockListModel::Anomalies).toString().contains("no_lease"));
        QVERIFY(
            cell(LockListModel::Anomalies, Qt::ToolTipRole).toString().contains("/locks/a/beef"));
        QCOMPARE(model.lockNameAt(0), std::string("/locks/a"));
        QCOMPARE(model.rowOfLock("/locks/a"), 0);
        QCOMPARE(model.rowOfLock("/locks/zz"), -1);
    }

    void aNewWaiterChangesOneRowWithoutReset() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (const char* name : {"/l/a", "/l/b", "/l/c"})
            state.locks[name] = lockQueue(name, 1);
        model.setState(state, Epoch);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        state.locks["/l/b"].keys.push_back(lockKey("/l/b", 999, 999));
        model.setState(state, Epoch);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed[0][0].toModelIndex().row(), 1);
        QCOMPARE(changed[0][1].toModelIndex().row(), 1);

        state.locks["/l/bb"] = lockQueue("/l/bb", 0);
        model.setState(state, Epoch);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted[0][1].toInt(), 2);
        QCOMPARE(model.lockNameAt(2), std::string("/l/bb"));
    }

    void aTickChangesTheTtlColumnOnly() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (const char* name : {"/l/a", "/l/b", "/l/c"})
            state.locks[name] = lockQueue(name, 1);
        model.setState(state, Epoch);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.tick(Epoch + std::chrono::seconds(1));
        QCOMPARE(changed.count(), 1);
        const auto topLeft = changed[0][0].toModelIndex();
        const auto bottomRight = changed[0][1].toModelIndex();
        QCOMPARE(topLeft.column(), int(LockListModel::Ttl));
        QCOMPARE(bottomRight.column(), int(LockListModel::Ttl));
        QCOMPARE(topLeft.row(), 0);
        QCOMPARE(bottomRight.row(), 2);
    }
};

QTEST_GUILESS_MAIN(LockListModelTest)
#include "lock_list_model_test.moc"
