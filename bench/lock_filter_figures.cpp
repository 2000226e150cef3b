// The lock list's filter box on a million locks: LockListModel and LockListProxy under a
// QTableView as the Locks page has them (sorted by name), fed a state built here, so the figure
// is the GUI thread's own cost (proxy, view and paint) and not etcd's.
#include "app/core/lock_list_model.h"
#include "app/core/lock_list_proxy.h"
#include "etcdclient/hex_id.h"
#include "figures.h"
#include "resident_memory.h"

#include <QApplication>
#include <QHeaderView>
#include <QTableView>

namespace lockscope::bench {

namespace {

// Lock `i`: one holder, and on every seventh lock one to three waiters, so that sorting by
// Waiters has work to do.
void addLock(etcd::LockMonitorState& state, const std::string& name, int i) {
    etcd::LockQueue queue;
    queue.name = name;
    const int keys = i % 7 == 0 ? 2 + i % 3 : 1;
    for (int k = 0; k < keys; ++k) {
        etcd::LockKey key;
        key.lease = 0x694d000000000000 + int64_t(i) * 4 + k;
        key.key = queue.name + "/" + etcd::leaseHex(key.lease);
        key.createRevision = key.modRevision = int64_t(i) * 4 + k + 2;
        queue.keys.push_back(std::move(key));
    }
    state.locks.emplace_hint(state.locks.end(), queue.name, std::move(queue));
}

// Runs `step` and waits until the view has taken it in and painted it.
template <class Step> std::chrono::steady_clock::duration timed(QTableView& view, Step step) {
    const auto began = std::chrono::steady_clock::now();
    step();
    QCoreApplication::processEvents();
    view.repaint();
    return std::chrono::steady_clock::now() - began;
}

} // namespace

LockFilterFigure measureLockFilter(int locks) {
    const double residentBefore = residentMb();
    etcd::LockMonitorState state;
    for (int i = 0; i < locks; ++i)
        addLock(state, "/bench/filter/lock" + std::to_string(i), i);
    LockListModel model;
    LockListProxy proxy;
    proxy.setLocks(&model);
    QTableView view; // as the Locks page shows the list: rows of one height, sorted by name
    view.setSelectionBehavior(QAbstractItemView::SelectRows);
    view.setSelectionMode(QAbstractItemView::SingleSelection);
    view.verticalHeader()->hide();
    view.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view.setModel(&proxy);
    view.setSortingEnabled(true);
    view.sortByColumn(LockListModel::Name, Qt::AscendingOrder);
    view.resize(560, 600);
    view.show();
    const std::string n = std::to_string(locks);
    LockFilterFigure figure{locks,
                            0,
                            {"window: filter " + n + " locks", {}},
                            {"window: sort " + n + " locks by each column", {}},
                            {"window: 1000-lock page among " + n, {}},
                            0};
    figure.listSeconds =
        std::chrono::duration<double>(timed(view, [&] { model.setState(state); })).count();
    figure.residentMb = residentMb() - residentBefore;
    view.setCurrentIndex(proxy.index(0, 0));
    // A name typed letter by letter, then cleared: each step filters every row.
    for (const char* text : {"l", "lo", "lock", "lock4", "lock42", "lock424", "LOCK4242", ""})
        figure.filter.add(timed(view, [&] { proxy.setNameFilter(QString::fromLatin1(text)); }));
    // A click on every other header in turn, then back on the Name header.
    for (int column = LockListModel::Name + 1; column <= LockListModel::ColumnCount; ++column)
        figure.sort.add(timed(view, [&] {
            view.sortByColumn(column % LockListModel::ColumnCount, Qt::AscendingOrder);
        }));
    // Pages of a paged listing: runs of 1000 locks after the others.
    for (int page = 0; page < 5; ++page) {
        etcd::LockChanges changes;
        for (int i = 0; i < 1000; ++i) {
            changes.locks.push_back("/bench/filter/lockz" +
                                    std::to_string(10000 + page * 1000 + i));
            addLock(state, changes.locks.back(), locks + page * 1000 + i);
        }
        figure.insert.add(timed(view, [&] { model.update(state, changes); }));
    }
    return figure;
}

} // namespace lockscope::bench
