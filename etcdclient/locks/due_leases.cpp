#include "etcdclient/locks/due_leases.h"

#include "etcdclient/locks/lease_evidence.h"

#include <algorithm>

namespace etcd {

std::vector<int64_t> dueLeases(const std::unordered_map<int64_t, LockTable::LeaseUse>& uses,
                               const std::map<int64_t, LeaseTtl>& known,
                               std::chrono::steady_clock::time_point now,
                               std::chrono::milliseconds refresh, std::size_t budget) {
    struct Due {
        bool holding;
        std::chrono::steady_clock::time_point lookedAt; // never: the epoch, oldest of all
        int64_t lease;
    };
    std::vector<Due> due;
    for (const auto& [lease, use] : uses) {
        const auto ttl = known.find(lease);
        if (ttl != known.end() && (ttl->second.ttlSeconds < 0 ||
                                   (now - ttl->second.fetchedAt <
                                        leaseLookupPeriod(ttl->second.grantedTtlSeconds, refresh) &&
                                    ttl->second.remainingAt(now) > 1.5)))
            continue;
        due.push_back(
            {use.holding > 0,
             ttl == known.end() ? std::chrono::steady_clock::time_point{} : ttl->second.fetchedAt,
             lease});
    }
    const auto taken = due.begin() + static_cast<std::ptrdiff_t>(std::min(budget, due.size()));
    std::partial_sort(due.begin(), taken, due.end(), [](const Due& a, const Due& b) {
        return a.holding != b.holding ? a.holding : a.lookedAt < b.lookedAt;
    });
    std::vector<int64_t> out;
    out.reserve(static_cast<std::size_t>(taken - due.begin()));
    for (auto it = due.begin(); it != taken; ++it)
        out.push_back(it->lease);
    return out;
}

} // namespace etcd
