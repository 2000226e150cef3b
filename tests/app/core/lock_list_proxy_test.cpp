// LockListProxy over LockListModel: a well-behaved model through every kind of change, showing
// what a plain filter and stable sort of the model's rows show.
#include "app/core/lock_list_model.h"
#include "app/core/lock_list_proxy.h"
#include "app/core/own_lock.h"
#include "lock_test_data.h"
#include "support/qtest_registry.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <memory>
#include <random>
#include <set>

using namespace lockscope;
using namespace lockscope::test;

namespace {

// The locks the proxy shows, top to bottom.
std::vector<std::string> shownLocks(const LockListProxy& proxy, const LockListModel& model) {
    std::vector<std::string> locks;
    for (int row = 0; row < proxy.rowCount(); ++row)
        locks.push_back(model.lockNameAt(proxy.mapToSource(proxy.index(row, 0)).row()));
    return locks;
}

// What the proxy should show, the plain way: the model's rows whose name contains `filter` in
// any case, stably sorted by `column` (the rows are in name order already).
std::vector<std::string> expectedLocks(const LockListModel& model, const QString& filter,
                                       int column, Qt::SortOrder order) {
    std::vector<int> rows;
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.nameAt(row).contains(filter, Qt::CaseInsensitive))
            rows.push_back(row);
    const bool ascending = order == Qt::AscendingOrder;
    if (column == LockListModel::Name) {
        if (!ascending)
            std::reverse(rows.begin(), rows.end());
    } else if (LockListModel::sortsByNumber(column)) {
        std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) {
            const double left = model.sortNumberAt(a, column);
            const double right = model.sortNumberAt(b, column);
            return ascending ? left < right : right < left;
        });
    } else if (LockListModel::sortsByBytes(column)) {
        const auto bytesAt = [&](int row) { // none after every key
            std::string bytes;
            return std::make_pair(!model.appendSortBytes(row, column, bytes), bytes);
        };
        std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) {
            return ascending ? bytesAt(a) < bytesAt(b) : bytesAt(b) < bytesAt(a);
        });
    } else {
        std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) {
            const QString left = model.index(a, column).data().toString();
            const QString right = model.index(b, column).data().toString();
            return ascending ? left < right : right < left;
        });
    }
    std::vector<std::string> locks;
    for (int row : rows)
        locks.push_back(model.lockNameAt(row));
    return locks;
}

// Every shown row maps to its source row and back; every other source row maps to nothing.
void checkMapping(const LockListProxy& proxy, const LockListModel& model) {
    int shown = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex source = model.index(row, LockListModel::Waiters);
        const QModelIndex mapped = proxy.mapFromSource(source);
        if (!mapped.isValid())
            continue;
        ++shown;
        QCOMPARE(mapped.column(), int(LockListModel::Waiters));
        QCOMPARE(proxy.mapToSource(mapped), source);
    }
    QCOMPARE(shown, proxy.rowCount());
}

OwnLock heldLock(const std::string& name) {
    OwnLock own;
    own.lock = name;
    own.state = OwnLock::State::Held;
    own.since = QDateTime::currentDateTime();
    return own;
}

} // namespace

class LockListProxyTest : public QObject {
    Q_OBJECT
private slots:
    // Random inserts, removals, changes, ticks, own marks, filters and sorts; after each, the
    // proxy shows what a plain filter and sort show, and QAbstractItemModelTester checks every
    // signal it sends.
    void showsWhatAPlainFilterAndSortShow_data() {
        QTest::addColumn<unsigned>("seed");
        QTest::newRow("seed 20261124") << 20261124u;
        QTest::newRow("seed 6: sorted by holder while empty") << 6u;
        QTest::newRow("seed 10") << 10u;
    }

    void showsWhatAPlainFilterAndSortShow() {
        QFETCH(unsigned, seed);
        LockListModel model;
        LockListProxy proxy;
        proxy.setLocks(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        std::mt19937 random(seed);
        const auto pick = [&](int n) { return static_cast<int>(random() % n); };
        // Names of any case, not only ASCII, and not all UTF-8 (shown as \xff).
        const std::vector<std::string> stems = {"alpha",   "Beta",    "GAMMA",    "straße", "Ärger",
                                                "σίσυφος", "ΣΊΣΥΦΟΣ", "\xff\xfe", "db/Job"};
        const std::vector<QString> filters = {"",    "a",   "A",     "ALPHA",   "äR",
                                              "ΣΊΣ", "ς",   "\\xFF", "\\xff\\", "job/",
                                              "/1",  "b/j", "SS",    "ß"};
        etcd::LockMonitorState state;
        QString filter;
        int column = LockListModel::Name;
        Qt::SortOrder order = Qt::AscendingOrder;
        auto now = Epoch;
        int64_t lease = 1000;
        for (int step = 0; step < 600; ++step) {
            switch (pick(9)) {
            case 0: { // a page of new locks, or some gone: one listing
                for (int i = pick(2) ? pick(12) : pick(80); i > 0; --i) {
                    const std::string name =
                        "/l/" + stems[pick(int(stems.size()))] + std::to_string(pick(40));
                    if (pick(3) == 0)
                        state.locks.erase(name);
                    else if (!state.locks.contains(name))
                        state.locks[name] = lockQueue(name, pick(4), lease += 10);
                }
                model.setState(state, now);
                break;
            }
            case 1:
            case 2: { // waiters come and go, leases refresh: the changes of a watch
                etcd::LockChanges changes;
                std::set<std::string> changed;
                for (int i = pick(5); i > 0; --i) {
                    const std::string name =
                        "/l/" + stems[pick(int(stems.size()))] + std::to_string(pick(40));
                    changed.insert(name);
                    auto found = state.locks.find(name);
                    if (found == state.locks.end())
                        state.locks[name] = lockQueue(name, pick(3), lease += 10);
                    else if (pick(4) == 0)
                        state.locks.erase(found);
                    else if (pick(2) == 0 && found->second->keys.size() > 1)
                        found->second.edit().keys.pop_back();
                    else
                        found->second.edit().keys.push_back(lockKey(name, lease + 1, lease + 1));
                    ++lease;
                }
                changes.locks.assign(changed.begin(), changed.end());
                if (pick(3) == 0) {
                    changes.leases = true;
                    for (const auto& [name, queue] : state.locks)
                        if (pick(2) == 0)
                            state.leases[queue->keys.front().lease] = leaseTtl(pick(60) - 1);
                }
                model.update(state, changes, now);
                break;
            }
            case 3: // the countdown moves on
                now += std::chrono::milliseconds(pick(20000));
                model.tick(now);
                break;
            case 4: // a lock of ours: a keyless row comes, or a mark goes
                if (pick(2) == 0)
                    model.setOwnLock(heldLock("/l/ours" + std::to_string(pick(5))));
                else
                    model.clearOwnLocks();
                break;
            case 5:
            case 6:
                filter = filters[pick(int(filters.size()))];
                proxy.setNameFilter(filter);
                break;
            case 8: { // a page of a paged listing (locks of all TTLs), or all of it gone
                const std::string page = "/l/page" + std::to_string(pick(3)) + "/";
                const bool listed = state.locks.contains(page + "10");
                for (int i = 10; i < 50; ++i) {
                    const std::string name = page + std::to_string(i);
                    if (listed) {
                        state.locks.erase(name);
                        continue;
                    }
                    state.locks[name] = lockQueue(name, pick(4), lease += 10);
                    state.leases[state.locks[name]->keys.front().lease] = leaseTtl(pick(600));
                }
                model.setState(state, now);
                break;
            }
            case 7:
                column = pick(LockListModel::ColumnCount);
                order = pick(2) ? Qt::AscendingOrder : Qt::DescendingOrder;
                proxy.sort(column, order);
                break;
            }
            const auto expected = expectedLocks(model, filter, column, order);
            if (shownLocks(proxy, model) != expected)
                QFAIL(qPrintable(QString("step %1: filter \"%2\", column %3, order %4: %5 shown, "
                                         "%6 expected")
                                     .arg(step)
                                     .arg(filter)
                                     .arg(column)
                                     .arg(order)
                                     .arg(proxy.rowCount())
                                     .arg(expected.size())));
            checkMapping(proxy, model);
        }
        QVERIFY(model.rowCount() > 50);
        proxy.setNameFilter("");
        QCOMPARE(proxy.rowCount(), model.rowCount());
    }

    // The Name column sorts as etcd orders keys: by their bytes, which is the model's order.
    void namesSortByTheirBytes() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (const char* name : {"/l/b", "/l/\xff", "/l/B", "/l/a\\b", "/l/é"})
            state.locks[name] = lockQueue(name, 0);
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        proxy.sort(LockListModel::Name, Qt::AscendingOrder);
        const std::vector<std::string> ascending = {"/l/B", "/l/a\\b", "/l/b", "/l/é", "/l/\xff"};
        QVERIFY(shownLocks(proxy, model) == ascending);
        proxy.sort(LockListModel::Name, Qt::DescendingOrder);
        QVERIFY(shownLocks(proxy, model) ==
                std::vector<std::string>(ascending.rbegin(), ascending.rend()));
    }

    // Any case, other scripts too, and a byte that is not UTF-8 by the escape it is shown as.
    void filtersByNameInAnyCase() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (const char* name : {"/jobs/Ärger", "/jobs/ΣΊΣΥΦΟΣ", "/jobs/\xff-raw", "/jobs/plain"})
            state.locks[name] = lockQueue(name, 0);
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        const auto shownFor = [&](const QString& text) {
            proxy.setNameFilter(text);
            return shownLocks(proxy, model);
        };
        QVERIFY(shownFor("ärg") == std::vector<std::string>{"/jobs/Ärger"});
        QVERIFY(shownFor("σίσ") == std::vector<std::string>{"/jobs/ΣΊΣΥΦΟΣ"});
        QVERIFY(shownFor("\\XFF") == std::vector<std::string>{"/jobs/\xff-raw"});
        QVERIFY(shownFor("PLAIN") == std::vector<std::string>{"/jobs/plain"});
        QVERIFY(shownFor("nothing").empty());
        QCOMPARE(shownFor("").size(), std::size_t(4));
    }

    // A filter or sort change is a layout change: the selected lock stays selected while it is
    // shown, and loses its selection when it is filtered out.
    void theSelectionFollowsItsLockThroughFilterAndSort() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (int i = 0; i < 30; ++i) {
            const std::string name = "/l/lock" + std::to_string(10 + i);
            state.locks[name] = lockQueue(name, (i * 7) % 5);
        }
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        QItemSelectionModel selection(&proxy);
        QSignalSpy reset(&proxy, &QAbstractItemModel::modelReset);
        const QModelIndex picked =
            proxy.mapFromSource(model.index(model.rowOfLock("/l/lock25"), 0));
        selection.setCurrentIndex(picked,
                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const auto selectedLock = [&] {
            const QModelIndexList rows = selection.selectedRows();
            return rows.size() == 1 ? model.lockNameAt(proxy.mapToSource(rows[0]).row())
                                    : std::string();
        };
        proxy.setNameFilter("K2");
        QCOMPARE(proxy.rowCount(), 10);
        QCOMPARE(selectedLock(), std::string("/l/lock25"));
        QCOMPARE(model.lockNameAt(proxy.mapToSource(selection.currentIndex()).row()),
                 std::string("/l/lock25"));
        proxy.sort(LockListModel::Waiters, Qt::DescendingOrder);
        QCOMPARE(selectedLock(), std::string("/l/lock25"));
        proxy.setNameFilter("k1");
        QCOMPARE(selectedLock(), std::string());
        QVERIFY(!selection.currentIndex().isValid());
        QCOMPARE(reset.count(), 0);
    }

    // A run of new locks (a page of a listing) arrives as one insert, in proxy rows; locks
    // the filter hides are not inserted at all.
    void aRunOfNewLocksIsOneInsert() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (int i = 0; i < 100; ++i) {
            const std::string name = "/l/a" + std::to_string(100 + i);
            state.locks[name] = lockQueue(name, 0);
        }
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.setNameFilter("/l/a1");
        QSignalSpy inserted(&proxy, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&proxy, &QAbstractItemModel::rowsRemoved);
        QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
        for (int i = 0; i < 50; ++i) { // after /l/a150, before /l/a151
            const std::string name = "/l/a150-" + std::to_string(10 + i);
            state.locks[name] = lockQueue(name, 0);
        }
        for (int i = 0; i < 20; ++i) { // after every other lock, filtered out
            const std::string name = "/l/z" + std::to_string(10 + i);
            state.locks[name] = lockQueue(name, 0);
        }
        model.setState(state, Epoch);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted[0][1].toInt(), 51);
        QCOMPARE(inserted[0][2].toInt(), 100);
        QCOMPARE(layout.count(), 0);
        QCOMPARE(proxy.rowCount(), 150);

        for (int i = 0; i < 50; ++i)
            state.locks.erase("/l/a150-" + std::to_string(10 + i));
        model.setState(state, Epoch);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(removed[0][1].toInt(), 51);
        QCOMPARE(removed[0][2].toInt(), 100);
        QCOMPARE(proxy.rowCount(), 100);
    }

    // A listing's size known ahead: room for its rows in the model and the proxy at once, and
    // the rows that come into it are shown as any others.
    void roomForAListingComesBeforeItsRows() {
        LockListModel model;
        LockListProxy proxy;
        proxy.setLocks(&model);
        proxy.sort(LockListModel::Waiters);
        QSignalSpy expected(&model, &LockListModel::rowsExpected);
        model.expectRows(5000);
        QCOMPARE(expected.count(), 1);
        QVERIFY(model.rowsRoom() >= 5000);
        QVERIFY(proxy.rowsRoom() >= 5000);
        model.expectRows(100); // there is room already
        QCOMPARE(expected.count(), 1);

        etcd::LockMonitorState state;
        for (int i = 0; i < 300; ++i) {
            const std::string name = "/l/r" + std::to_string(1000 - i);
            state.locks[name] = lockQueue(name, i % 7);
        }
        model.setState(state, Epoch);
        QCOMPARE(shownLocks(proxy, model),
                 expectedLocks(model, "", LockListModel::Waiters, Qt::AscendingOrder));
        checkMapping(proxy, model);
        QVERIFY(proxy.rowsRoom() >= 5000);
        proxy.sort(LockListModel::Name, Qt::DescendingOrder); // a new order keeps the room
        QVERIFY(proxy.rowsRoom() >= 5000);
        proxy.sort(LockListModel::Waiters, Qt::DescendingOrder);
        QVERIFY(proxy.rowsRoom() >= 5000);
    }

    // A recipe sorts by its value (mutex before election), not by its word ("election" before
    // "mutex" in English, and in another order in another language).
    void aRecipeSortsByItsValueNotItsWord() {
        LockListModel model;
        etcd::LockMonitorState state;
        state.locks["/l/a"] = lockQueue("/l/a", 0, 100);
        state.locks["/l/a"].edit().keys.front().value = "candidate"; // a campaign's proposal
        state.locks["/l/b"] = lockQueue("/l/b", 0, 101);
        model.setState(state, Epoch);
        QCOMPARE(model.index(0, LockListModel::Kind).data().toString(), QString("election"));
        QCOMPARE(model.index(1, LockListModel::Kind).data().toString(), QString("mutex"));
        LockListProxy proxy;
        proxy.setLocks(&model);
        proxy.sort(LockListModel::Kind, Qt::AscendingOrder);
        QVERIFY(shownLocks(proxy, model) == (std::vector<std::string>{"/l/b", "/l/a"}));
        proxy.sort(LockListModel::Kind, Qt::DescendingOrder);
        QVERIFY(shownLocks(proxy, model) == (std::vector<std::string>{"/l/a", "/l/b"}));
    }

    // A holder sorts by its key's bytes, as etcd orders keys, not by the text shown (where the
    // byte \xff is "\xff", before "a"), and a lock nobody holds comes after every holder.
    void aHolderSortsByItsKeysBytesNotItsText() {
        LockListModel model;
        etcd::LockMonitorState state;
        state.locks["/l/a"] = lockQueue("/l/a", 0, 100);
        state.locks["/l/\xff"] = lockQueue("/l/\xff", 0, 101);
        model.setState(state, Epoch);
        model.setOwnLock(heldLock("/l/0")); // ours, without a key yet: no holder
        QCOMPARE(model.index(0, LockListModel::Holder).data().toString(), QString());
        QCOMPARE(model.index(1, LockListModel::Holder).data().toString(), QString("/l/a/64"));
        QCOMPARE(model.index(2, LockListModel::Holder).data().toString(), QString("/l/\\xff/65"));
        LockListProxy proxy;
        proxy.setLocks(&model);
        proxy.sort(LockListModel::Holder, Qt::AscendingOrder);
        QVERIFY(shownLocks(proxy, model) == (std::vector<std::string>{"/l/a", "/l/\xff", "/l/0"}));
        proxy.sort(LockListModel::Holder, Qt::DescendingOrder);
        QVERIFY(shownLocks(proxy, model) == (std::vector<std::string>{"/l/0", "/l/\xff", "/l/a"}));
    }

    // Sorted by holder, a lock moves each time its holder hands over, its new key compared with
    // those the sort took: "/l/j/<lease>" goes before "/l/j/5/50" while the lease's first hex
    // digit is below 5, after it from then on.
    void aHandoverMovesItsLockWhenSortedByHolder() {
        LockListModel model;
        etcd::LockMonitorState state;
        state.locks["/l/j"] = lockQueue("/l/j", 0, 0x10);
        state.locks["/l/j/5"] = lockQueue("/l/j/5", 0, 0x50);
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        proxy.sort(LockListModel::Holder, Qt::AscendingOrder);
        for (int64_t lease = 0x10; lease <= 0xf0; lease += 0x10) {
            state.locks["/l/j"] = lockQueue("/l/j", 0, lease);
            model.update(state, {.all = false, .locks = {"/l/j"}, .leases = false}, Epoch);
            const std::vector<std::string> expected =
                lease < 0x50 ? std::vector<std::string>{"/l/j", "/l/j/5"}
                             : std::vector<std::string>{"/l/j/5", "/l/j"};
            QVERIFY2(shownLocks(proxy, model) == expected, qPrintable(QString::number(lease, 16)));
        }
    }

    // Sorted by TTL, a tick of the countdown moves no row: one dataChanged over the column.
    void aTickMovesNoRowWhenSortedByTtl() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (int i = 0; i < 20; ++i) {
            const std::string name = "/l/" + std::to_string(10 + i);
            state.locks[name] = lockQueue(name, 0, 100 + i);
            state.leases[100 + i] = leaseTtl((i * 13) % 7); // some expire within the tick
        }
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        proxy.sort(LockListModel::Ttl, Qt::AscendingOrder);
        proxy.setNameFilter("1");
        const auto before = shownLocks(proxy, model);
        QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
        QSignalSpy changed(&proxy, &QAbstractItemModel::dataChanged);
        model.tick(Epoch + std::chrono::seconds(5));
        QCOMPARE(layout.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed[0][0].toModelIndex(), proxy.index(0, LockListModel::Ttl));
        QCOMPARE(changed[0][1].toModelIndex(),
                 proxy.index(proxy.rowCount() - 1, LockListModel::Ttl));
        QCOMPARE(changed[0][2].value<QList<int>>(), LockListModel::countdownRoles());
        QVERIFY(shownLocks(proxy, model) == before);
        // A lease that refreshed moves its lock.
        state.leases[100] = leaseTtl(600);
        model.update(state, {.all = false, .locks = {}, .leases = true},
                     Epoch + std::chrono::seconds(5));
        QCOMPARE(layout.count(), 1);
        QCOMPARE(shownLocks(proxy, model).back(), std::string("/l/10"));
    }

    // A layout change of the source (LockListModel sends none today) keeps the proxy whole and
    // the selection on its lock.
    void aSourceLayoutChangeKeepsTheSelection() {
        LockListModel model;
        etcd::LockMonitorState state;
        for (const char* name : {"/l/a", "/l/b", "/l/c"})
            state.locks[name] = lockQueue(name, 1);
        model.setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(&model);
        QAbstractItemModelTester tester(&proxy,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        proxy.setNameFilter("/l/");
        QItemSelectionModel selection(&proxy);
        selection.setCurrentIndex(proxy.index(1, 0), QItemSelectionModel::ClearAndSelect);
        emit model.layoutAboutToBeChanged();
        emit model.layoutChanged();
        QCOMPARE(proxy.rowCount(), 3);
        QCOMPARE(model.lockNameAt(proxy.mapToSource(selection.currentIndex()).row()),
                 std::string("/l/b"));
    }

    void aDestroyedModelLeavesAnEmptyProxy() {
        auto model = std::make_unique<LockListModel>();
        etcd::LockMonitorState state;
        state.locks["/l/a"] = lockQueue("/l/a", 1);
        model->setState(state, Epoch);
        LockListProxy proxy;
        proxy.setLocks(model.get());
        proxy.sort(LockListModel::Waiters, Qt::AscendingOrder);
        QCOMPARE(proxy.rowCount(), 1);
        model.reset();
        QCOMPARE(proxy.rowCount(), 0);
        QVERIFY(!proxy.index(0, 0).isValid());
        proxy.setNameFilter("a");
        proxy.sort(LockListModel::Holder, Qt::AscendingOrder);
        QCOMPARE(proxy.rowCount(), 0);
    }

    void forwardsTheHeader() {
        LockListModel model;
        LockListProxy proxy;
        proxy.setLocks(&model);
        proxy.setNameFilter("nothing matches");
        QCOMPARE(proxy.headerData(LockListModel::Waiters, Qt::Horizontal).toString(),
                 model.headerData(LockListModel::Waiters, Qt::Horizontal).toString());
        proxy.setLocks(nullptr);
        QCOMPARE(proxy.rowCount(), 0);
        QCOMPARE(proxy.columnCount(), 0);
    }
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockListProxyTest)
#include "lock_list_proxy_test.moc"
