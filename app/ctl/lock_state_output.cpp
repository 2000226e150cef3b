#include "app/ctl/lock_state_output.h"

#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lock_json.h"
#include "app/core/lock_queue_model.h"
#include "app/ctl/text_table.h"

#include <QCoreApplication>
#include <cstdio>

namespace lockscope {

void printLockState(const etcd::LockMonitorState& state, const std::string& prefix, bool json) {
    if (json) {
        JsonWriter json(stdout);
        writeLockStateJson(state, json);
        json.flush();
        std::putchar('\n');
        return;
    }
    // One table of every lock's queue in turn, without the Waiting column: one read cannot tell
    // how long a key has waited. One model shows each queue in turn, its rows copied as text: a
    // proxy stacking a model per lock found each row among them all (100k locks: hours).
    LockQueueModel queue;
    TextTable table(queue,
                    {LockQueueModel::Lock, LockQueueModel::Kind, LockQueueModel::Position,
                     LockQueueModel::Key, LockQueueModel::Lease, LockQueueModel::CreateRevision,
                     LockQueueModel::Ttl, LockQueueModel::GrantedTtl, LockQueueModel::Predecessor,
                     LockQueueModel::Value});
    for (const auto& [name, lock] : state.locks) {
        queue.setQueue(&lock, state.leases);
        table.addRows(queue);
    }
    const int lockCount = static_cast<int>(state.locks.size());
    std::fputs(
        qPrintable(QCoreApplication::translate("lockscopectl", "revision %1, %n lock(s) under %2\n",
                                               nullptr, lockCount)
                       .arg(state.revision)
                       .arg(QString::fromStdString(displayKey(prefix)))),
        stdout);
    if (!state.locks.empty())
        table.write(stdout);
    for (const auto& [name, anomalies] : state.anomalies)
        for (const auto& anomaly : anomalies)
            std::fputs(
                qPrintable(QCoreApplication::translate("lockscopectl", "anomaly: %1: %2: %3\n")
                               .arg(QString::fromStdString(displayKey(anomaly.key)),
                                    etcd::anomalyKindName(anomaly.kind),
                                    QString::fromStdString(anomaly.detail))),
                stdout);
}

} // namespace lockscope
