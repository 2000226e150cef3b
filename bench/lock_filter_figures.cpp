// The lock list's filter box on a million locks: LockListModel and LockListProxy as the Locks
// page uses them (sorted by name), fed a state built here, so the figure is the GUI thread's
// own cost and not etcd's.
#include "app/core/lock_list_model.h"
#include "app/core/lock_list_proxy.h"
#include "etcdclient/hex_id.h"
#include "figures.h"
#include "resident_memory.h"

namespace lockscope::bench {

LockFilterFigure measureLockFilter(int locks) {
    const double residentBefore = residentMb();
    etcd::LockMonitorState state;
    for (int i = 0; i < locks; ++i) {
        etcd::LockQueue queue;
        queue.name = "/bench/filter/lock" + std::to_string(i);
        etcd::LockKey key;
        key.lease = 0x694d000000000000 + i;
        key.key = queue.name + "/" + etcd::leaseHex(key.lease);
        key.createRevision = key.modRevision = i + 2;
        queue.keys.push_back(std::move(key));
        state.locks.emplace_hint(state.locks.end(), queue.name, std::move(queue));
    }
    LockListModel model;
    LockListProxy proxy;
    proxy.setLocks(&model);
    proxy.sort(LockListModel::Name, Qt::AscendingOrder);
    const auto listed = std::chrono::steady_clock::now();
    model.setState(state);
    LockFilterFigure figure{
        locks, 0, {"window: filter " + std::to_string(locks) + " locks", {}}, 0};
    figure.listSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - listed).count();
    figure.residentMb = residentMb() - residentBefore;
    // A name typed letter by letter, then cleared: each step filters every row.
    for (const char* text : {"l", "lo", "lock", "lock4", "lock42", "lock424", "LOCK4242", ""}) {
        const auto began = std::chrono::steady_clock::now();
        proxy.setNameFilter(QString::fromLatin1(text));
        figure.filter.add(std::chrono::steady_clock::now() - began);
    }
    return figure;
}

} // namespace lockscope::bench
