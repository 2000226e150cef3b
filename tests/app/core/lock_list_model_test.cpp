// LockListModel over plain monitor states: a well-behaved model, updated in place.
#include "app/core/lock_list_model.h"
#include "app/core/lock_list_proxy.h"
#include "app/core/own_lock.h"
#include "lock_test_data.h"
#include "support/qtest_registry.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <array>
#include <random>

using namespace lockscope;
using namespace lockscope::test;

namespace {

// Every cell of every row, as a view would ask for it.
QStringList cellsOf(const LockListModel& model) {
    QStringList cells;
    for (int row = 0; row < model.rowCount(); ++row)
        for (int column = 0; column < model.columnCount(); ++column)
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole), int(TtlRemainingRole)})
                cells << model.data(model.index(row, column), role).toString();
    return cells;
}

} // namespace

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
        state.anomalies["/locks/a"].push_back(
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
        QCOMPARE(cell(LockListModel::Anomalies).toString(), QString("⚠ no lease"));
        QVERIFY(
            cell(LockListModel::Anomalies, Qt::ToolTipRole).toString().contains("/locks/a/beef"));
        QCOMPARE(model.lockNameAt(0), std::string("/locks/a"));
        QCOMPARE(model.rowOfLock("/locks/a"), 0);
        QCOMPARE(model.rowOfLock("/locks/zz"), -1);
    }

    // Two anomalies read whole in a 70 px cell, not as "⚠ 2 …_key".
    void anAnomalyBadgeIsOneShortWordWithEverythingInItsTooltip() {
        LockListModel model;
        etcd::LockMonitorState state;
        state.locks["/locks/a"] = lockQueue("/locks/a", 1);
        state.anomalies["/locks/a"] = {
            {"/locks/a/stray", etcd::AnomalyKind::NoLease, "the key has no lease"},
            {"/locks/a/stray", etcd::AnomalyKind::NotALockKey, "not shaped <name>/<lease>"},
            {"/locks/a/65", etcd::AnomalyKind::ExpiredLease, "lease 65 is gone"}};
        model.setState(state, Epoch);
        const QModelIndex badge = model.index(0, LockListModel::Anomalies);
        QCOMPARE(badge.data().toString(), QString("⚠ no lease +2"));
        const QString tip = badge.data(Qt::ToolTipRole).toString();
        QCOMPARE(tip.count('\n'), 2);
        QVERIFY2(tip.contains("no lease: /locks/a/stray: the key has no lease"), qPrintable(tip));
        QVERIFY(tip.contains("odd key: /locks/a/stray: not shaped <name>/<lease>"));
        QVERIFY(tip.contains("expired: /locks/a/65: lease 65 is gone"));
    }

    // The lock list sorts by each column, through the proxy the page sorts with.
    void sortsByEachColumnThroughAProxy() {
        LockListModel model;
        etcd::LockMonitorState state;
        state.locks["/l/a"] = lockQueue("/l/a", 5, 100);
        state.locks["/l/b"] = lockQueue("/l/b", 0, 200);
        state.locks["/l/c"] = lockQueue("/l/c", 12, 300);
        state.leases[100] = leaseTtl(9, 60);
        state.leases[200] = leaseTtl(50, 60); // /l/c's not looked up yet
        state.anomalies["/l/b"] = {{"/l/b/c8", etcd::AnomalyKind::NoLease, "no lease"}};
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        const auto order = [&](int column, Qt::SortOrder sortOrder) {
            proxy.sort(column, sortOrder);
            QStringList names;
            for (int row = 0; row < proxy.rowCount(); ++row)
                names << proxy.index(row, LockListModel::Name).data().toString();
            return names.join(' ');
        };
        QCOMPARE(order(LockListModel::Name, Qt::DescendingOrder), QString("/l/c /l/b /l/a"));
        QCOMPARE(order(LockListModel::Holder, Qt::AscendingOrder), QString("/l/a /l/b /l/c"));
        // As numbers: 12 after 5, though "12" < "5" as text.
        QCOMPARE(order(LockListModel::Waiters, Qt::AscendingOrder), QString("/l/b /l/a /l/c"));
        QCOMPARE(order(LockListModel::Ttl, Qt::AscendingOrder), QString("/l/a /l/b /l/c"));
        QCOMPARE(order(LockListModel::Anomalies, Qt::DescendingOrder).left(4), QString("/l/b"));
        OwnLock own;
        own.lock = "/l/c";
        own.state = OwnLock::State::Held;
        own.since = QDateTime::currentDateTime();
        model.setOwnLock(own);
        own.lock = "/l/a";
        own.state = OwnLock::State::Waiting;
        model.setOwnLock(own);
        // By our lock's state (waiting before held, though "held" < "waiting" as words), a lock
        // not ours last.
        QCOMPARE(order(LockListModel::Ours, Qt::AscendingOrder), QString("/l/a /l/c /l/b"));
        QCOMPARE(order(LockListModel::Ours, Qt::DescendingOrder), QString("/l/b /l/c /l/a"));
        // Still sorted as the rows change.
        state.locks["/l/b"].edit().keys.push_back(lockKey("/l/b", 900, 900));
        for (int i = 0; i < 20; ++i)
            state.locks["/l/b"].edit().keys.push_back(lockKey("/l/b", 901 + i, 901 + i));
        proxy.sort(LockListModel::Waiters, Qt::AscendingOrder);
        model.setState(state, Epoch);
        QCOMPARE(proxy.index(2, LockListModel::Name).data().toString(), QString("/l/b"));
        // The filter box: names containing the text, any case; empty shows all again.
        proxy.setNameFilter("/L/B");
        QCOMPARE(order(LockListModel::Name, Qt::AscendingOrder), QString("/l/b"));
        proxy.setNameFilter("");
        QCOMPARE(proxy.rowCount(), 3);
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
        state.locks["/l/b"].edit().keys.push_back(lockKey("/l/b", 999, 999));
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

    // A page of a listing, or a re-list's removals, go in and out as runs of rows.
    void neighbouringNewAndGoneRowsAreOneInsertionOrRemoval() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (const char* name : {"/l/a", "/l/m", "/l/z"})
            state.locks[name] = lockQueue(name, 1);
        model.setState(state, Epoch);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        etcd::LockChanges changes;
        for (const char* name : {"/l/b", "/l/c", "/l/d", "/l/n", "/l/o"}) {
            state.locks[name] = lockQueue(name, 1);
            changes.locks.push_back(name);
        }
        model.update(state, changes, Epoch);
        QCOMPARE(inserted.count(), 2); // b..d after a, n..o after m
        QCOMPARE(inserted[0][1].toInt(), 1);
        QCOMPARE(inserted[0][2].toInt(), 3);
        QCOMPARE(inserted[1][1].toInt(), 5);
        QCOMPARE(inserted[1][2].toInt(), 6);
        QCOMPARE(model.rowCount(), 8);

        changes.locks = {"/l/c", "/l/d", "/l/m", "/l/n", "/l/z"};
        state.locks.erase("/l/c");
        state.locks.erase("/l/d");
        state.locks.erase("/l/n");
        state.locks["/l/m"].edit().keys.push_back(lockKey("/l/m", 999, 999)); // m changes, stays
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.update(state, changes, Epoch);
        QCOMPARE(changed.count(), 1); // m's row, where it is after c..d went
        QCOMPARE(changed[0][0].toModelIndex().row(), 2);
        QCOMPARE(changed[0][1].toModelIndex().row(), 2);
        QCOMPARE(removed.count(), 2); // c..d, then n
        QCOMPARE(removed[0][1].toInt(), 2);
        QCOMPARE(removed[0][2].toInt(), 3);
        QCOMPARE(removed[1][1].toInt(), 3);
        QCOMPARE(model.rowCount(), 5);
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.lockNameAt(row),
                     std::string(std::array{"/l/a", "/l/b", "/l/m", "/l/o", "/l/z"}[row]));
        QCOMPARE(model.index(2, LockListModel::Waiters).data().toInt(), 2);
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

    // The incremental path against the full one, over a long run of random changes: adding and
    // dropping locks, waiters, holders, anomalies and lease TTLs.
    void updatingChangedLocksShowsWhatAFullUpdateShows() {
        LockListModel incremental;
        QAbstractItemModelTester tester(&incremental,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        LockListModel full;
        std::mt19937 random(20261123);
        const auto pick = [&](int n) { return static_cast<int>(random() % n); };
        etcd::LockMonitorState state;
        int64_t next = 1000;
        for (int step = 0; step < 500; ++step) {
            etcd::LockChanges changes;
            changes.all = step == 0 || pick(50) == 0;
            std::set<std::string> changed;
            for (int i = pick(4); i >= 0; --i) {
                const std::string name = "/l/" + std::to_string(pick(12));
                changed.insert(name);
                state.anomalies.erase(name);
                auto found = state.locks.find(name);
                if (found == state.locks.end()) {
                    state.locks[name] = lockQueue(name, pick(3), next += 10);
                } else if (pick(4) == 0) {
                    state.locks.erase(found);
                    continue;
                } else if (pick(2) == 0 && found->second->keys.size() > 1) {
                    auto& keys = found->second.edit().keys;
                    keys.erase(keys.begin()); // a release
                } else {
                    ++next;
                    found->second.edit().keys.push_back(lockKey(name, next, next));
                }
                if (pick(3) == 0)
                    state.anomalies[name].push_back({state.locks[name]->keys.back().key,
                                                     etcd::AnomalyKind::NoLease, "no lease"});
            }
            if (pick(3) == 0) {
                changes.leases = true;
                for (const auto& [name, queue] : state.locks)
                    state.leases[queue->keys.front().lease] = leaseTtl(pick(60));
            }
            changes.locks.assign(changed.begin(), changed.end());
            incremental.update(state, changes, Epoch);
            full.setState(state, Epoch);
            QCOMPARE(cellsOf(incremental), cellsOf(full));
        }
        QVERIFY(incremental.rowCount() > 3);
    }

    // An update that names a few locks of many reports one range over their rows.
    void anUpdateReportsTheRangeOfTheLocksItNames() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (int i = 0; i < 100; ++i) {
            const std::string name = "/l/" + std::to_string(1000 + i);
            state.locks[name] = lockQueue(name, 1, 100 + 10 * i);
        }
        model.update(state, {.all = true, .locks = {}, .leases = true});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        // Neighbours share a range; a row further on gets its own, so a sorting proxy re-checks
        // only the rows that changed, not all between them.
        for (const char* name : {"/l/1040", "/l/1041", "/l/1090"})
            state.locks[name].edit().keys.push_back(lockKey(name, 5000, 5000));
        model.update(state,
                     {.all = false, .locks = {"/l/1040", "/l/1041", "/l/1090"}, .leases = false});
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed[0][0].toModelIndex().row(), 40);
        QCOMPARE(changed[0][1].toModelIndex().row(), 41);
        QCOMPARE(changed[1][0].toModelIndex().row(), 90);
        QCOMPARE(changed[1][1].toModelIndex().row(), 90);
        QCOMPARE(model.data(model.index(40, LockListModel::Waiters)).toInt(), 2);
    }

    // A lock of ours keeps its row (marked) while its keys are gone, until it is ours no more.
    void ourLockIsMarkedAndListedWithoutKeysUntilItEnds() {
        LockListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        etcd::LockMonitorState state;
        state.locks["/locks/a"] = lockQueue("/locks/a", 0);
        state.locks["/locks/c"] = lockQueue("/locks/c", 0, 200);
        model.setState(state, Epoch);
        OwnLock own;
        own.lock = "/locks/c";
        own.state = OwnLock::State::Held;
        own.since = QDateTime::currentDateTime();
        model.setOwnLock(own);
        const auto ours = [&](const std::string& lock) {
            return model.index(model.rowOfLock(lock), LockListModel::Ours).data().toString();
        };
        QCOMPARE(ours("/locks/c"), QString("held"));
        QCOMPARE(ours("/locks/a"), QString());

        state.locks.erase("/locks/c"); // our key went
        model.update(state, {.all = false, .locks = {"/locks/c"}, .leases = false});
        QCOMPARE(model.rowOfLock("/locks/c"), 1);
        own.state = OwnLock::State::Lost;
        own.detail = "lease revoked";
        model.setOwnLock(own);
        QCOMPARE(ours("/locks/c"), QString("lost"));
        QVERIFY(model.index(1, LockListModel::Ours)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("lease revoked"));
        QCOMPARE(model.index(1, LockListModel::Holder).data().toString(), QString());
        model.setState(state, Epoch); // a re-list keeps it too
        QCOMPARE(model.rowCount(), 2);

        own.lock = "/locks/b"; // a wait whose key is not there yet
        own.state = OwnLock::State::Waiting;
        model.setOwnLock(own);
        QCOMPARE(model.rowOfLock("/locks/b"), 1);
        QCOMPARE(ours("/locks/b"), QString("waiting"));

        own.lock = "/locks/c";
        own.state = OwnLock::State::Released;
        model.setOwnLock(own);
        QCOMPARE(model.rowOfLock("/locks/c"), -1);
        model.clearOwnLocks();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.lockNameAt(0), std::string("/locks/a"));
    }

    void aStateWithNoKeysIsOneResetKeepingOnlyOurLocks() {
        LockListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        etcd::LockMonitorState state;
        for (const char* name : {"/locks/a", "/locks/b", "/locks/c"})
            state.locks[name] = lockQueue(name, 1);
        model.setState(state, Epoch);
        OwnLock own;
        own.since = QDateTime::currentDateTime();
        own.lock = "/locks/z"; // waiting, its key not there yet
        own.state = OwnLock::State::Waiting;
        model.setOwnLock(own);
        own.lock = "/locks/b";
        own.state = OwnLock::State::Held;
        model.setOwnLock(own);
        QCOMPARE(model.rowCount(), 4);

        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removals(&model, &QAbstractItemModel::rowsAboutToBeRemoved);
        model.setState({}, Epoch); // a restart, or a prefix of no keys
        QCOMPARE(resets.size(), 1);
        QCOMPARE(removals.size(), 0);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.lockNameAt(0), std::string("/locks/b"));
        QCOMPARE(model.lockNameAt(1), std::string("/locks/z"));
        QCOMPARE(model.index(0, LockListModel::Ours).data().toString(), QString("held"));
        QCOMPARE(model.index(0, LockListModel::Holder).data().toString(), QString());
        QCOMPARE(model.index(1, LockListModel::Ours).data().toString(), QString("waiting"));

        state.locks.erase("/locks/a"); // keys again: rows come back beside ours
        model.setState(state, Epoch);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowOfLock("/locks/c"), 1);
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockListModelTest)
#include "lock_list_model_test.moc"
