#include "app/core/lock_history.h"

#include <algorithm>

namespace lockscope {

std::vector<HistoryKey> historyKeysOf(const etcd::LockQueues& locks,
                                      const etcd::AnomaliesByLock& anomalies) {
    std::vector<HistoryKey> keys;
    forEachHistoryKey(locks, anomalies, [&](const HistoryKey& key) { keys.push_back(key); });
    return keys;
}

void forEachHistoryKey(const etcd::LockQueues& locks, const etcd::AnomaliesByLock& anomalies,
                       const std::function<void(const HistoryKey&)>& each) {
    for (const auto& [name, queue] : locks) {
        const std::size_t holders = queue->holderCount();
        const auto ofLock = anomalies.find(name);
        for (std::size_t i = 0; i < queue->keys.size(); ++i) {
            const etcd::LockKey& key = queue->keys[i];
            const bool leaseGone =
                ofLock != anomalies.end() &&
                std::any_of(ofLock->second.begin(), ofLock->second.end(),
                            [&](const etcd::Anomaly& anomaly) {
                                return anomaly.kind == etcd::AnomalyKind::ExpiredLease &&
                                       anomaly.key == key.key;
                            });
            each({name, key.key, key.lease, key.createRevision, key.modRevision, queue->kind(),
                  i < holders, key.enqueuedAt, key.acquiredAt, key.enqueuedBeforeSeen,
                  key.acquiredBeforeSeen, leaseGone});
        }
    }
}

} // namespace lockscope
