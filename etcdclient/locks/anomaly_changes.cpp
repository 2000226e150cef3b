#include "etcdclient/locks/anomaly_changes.h"

#include "etcdclient/locks/lock_table.h"

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

void updateChangedAnomalies(AnomaliesByLock& seen, const LockTable& table,
                            const std::optional<LockNameRanges>& changed,
                            std::vector<AnomalyChange>& changes) {
    if (!changed) {
        updateAllAnomalies(seen, table.anomalies(), changes);
        return;
    }
    const auto& locks = table.locks();
    for (const auto& range : changed->ranges()) {
        std::vector<std::string> gone; // seen with anomalies, and no longer in the table
        for (auto was = seen.lower_bound(range.first);
             was != seen.end() && range.contains(was->first); ++was)
            if (!locks.count(was->first))
                gone.push_back(was->first);
        for (const std::string& name : gone)
            updateLockAnomalies(seen, name, {}, changes);
        for (auto at = locks.lower_bound(range.first);
             at != locks.end() && range.contains(at->first); ++at)
            updateLockAnomalies(seen, at->first, table.anomaliesOf(*at->second), changes);
    }
}

} // namespace etcd
