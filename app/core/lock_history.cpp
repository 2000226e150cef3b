#include "app/core/lock_history.h"

#include <algorithm>

namespace lockscope {

std::vector<HistoryKey> historyKeysOf(const etcd::LockQueues& locks,
                                      const etcd::AnomaliesByLock& anomalies) {
    std::vector<HistoryKey> keys;
    for (const auto& [name, queue] : locks)
        forEachHistoryKey(*queue, anomalies, [&](const HistoryKey& key) { keys.push_back(key); });
    return keys;
}

void forEachHistoryKey(const etcd::LockQueue& lock, const etcd::AnomaliesByLock& anomalies,
                       const std::function<void(const HistoryKey&)>& each) {
    const std::size_t holders = lock.holderCount();
    const auto ofLock = anomalies.find(lock.name);
    for (std::size_t i = 0; i < lock.keys.size(); ++i) {
        const etcd::LockKey& key = lock.keys[i];
        const bool leaseGone =
            ofLock != anomalies.end() &&
            std::any_of(ofLock->second.begin(), ofLock->second.end(),
                        [&](const etcd::Anomaly& anomaly) {
                            return anomaly.kind == etcd::AnomalyKind::ExpiredLease &&
                                   anomaly.key == key.key;
                        });
        each({lock.name, key.key, key.lease, key.createRevision, key.modRevision, lock.kind(),
              i < holders, key.enqueuedAt, key.acquiredAt, key.enqueuedBeforeSeen,
              key.acquiredBeforeSeen, leaseGone});
    }
}

std::vector<etcd::SharedLockQueue> sharedQueuesOf(const etcd::LockQueues& locks) {
    std::vector<etcd::SharedLockQueue> queues;
    queues.reserve(locks.size());
    for (const auto& [name, queue] : locks)
        queues.push_back(queue);
    return queues;
}

} // namespace lockscope
