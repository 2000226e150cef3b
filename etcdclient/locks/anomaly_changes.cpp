#include "etcdclient/locks/anomaly_changes.h"

#include <algorithm>

namespace etcd {

namespace {
bool contains(const std::vector<Anomaly>& anomalies, const Anomaly& anomaly) {
    return std::find(anomalies.begin(), anomalies.end(), anomaly) != anomalies.end();
}
} // namespace

void updateLockAnomalies(AnomaliesByLock& seen, const std::string& lock, std::vector<Anomaly> now,
                         std::vector<AnomalyChange>& changes) {
    const auto before = seen.find(lock);
    static const std::vector<Anomaly> none;
    const std::vector<Anomaly>& was = before == seen.end() ? none : before->second;
    // A lock has a handful of anomalies at most: pairing them by search is the cheap way.
    for (const Anomaly& anomaly : was)
        if (!contains(now, anomaly))
            changes.push_back({false, lock, anomaly});
    for (const Anomaly& anomaly : now)
        if (!contains(was, anomaly))
            changes.push_back({true, lock, anomaly});
    if (now.empty()) {
        if (before != seen.end())
            seen.erase(before);
    } else if (before != seen.end()) {
        before->second = std::move(now);
    } else {
        seen.emplace(lock, std::move(now));
    }
}

void updateAllAnomalies(AnomaliesByLock& seen, const AnomaliesByLock& now,
                        std::vector<AnomalyChange>& changes) {
    std::vector<std::string> gone; // seen, and without anomalies now
    for (const auto& [lock, anomalies] : seen)
        if (!now.count(lock))
            gone.push_back(lock);
    for (const std::string& lock : gone)
        updateLockAnomalies(seen, lock, {}, changes);
    for (const auto& [lock, anomalies] : now)
        updateLockAnomalies(seen, lock, anomalies, changes);
}

} // namespace etcd
