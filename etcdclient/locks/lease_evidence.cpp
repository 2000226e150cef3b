#include "etcdclient/locks/lease_evidence.h"

#include <algorithm>

namespace etcd {

std::chrono::milliseconds leaseLookupPeriod(int64_t grantedTtlSeconds,
                                            std::chrono::milliseconds refresh) {
    if (grantedTtlSeconds <= 0)
        return refresh;
    return std::min(refresh, std::chrono::milliseconds(grantedTtlSeconds * 500));
}

std::chrono::milliseconds leaseStaleAfter(int64_t grantedTtlSeconds,
                                          std::chrono::milliseconds refresh) {
    // At least two of the monitor's 0.5 s lease ticks: lookups go out on ticks.
    return std::max(2 * leaseLookupPeriod(grantedTtlSeconds, refresh),
                    std::chrono::milliseconds(1000));
}

bool leaseTtlStale(const LeaseTtl& ttl, std::chrono::steady_clock::time_point now,
                   std::chrono::milliseconds refresh) {
    return ttl.ttlSeconds >= 0 && ttl.fetchedAt != std::chrono::steady_clock::time_point{} &&
           now - ttl.fetchedAt > leaseStaleAfter(ttl.grantedTtlSeconds, refresh);
}

int leaseLookupsPerSecond(const std::unordered_map<int64_t, LockTable::LeaseUse>& uses,
                          const std::map<int64_t, LeaseTtl>& known,
                          std::chrono::milliseconds refresh, int floor, int cap) {
    double perSecond = 0;
    for (const auto& [lease, use] : uses) {
        const auto ttl = known.find(lease);
        const int64_t granted = ttl == known.end() ? 0 : ttl->second.grantedTtlSeconds;
        const auto period =
            std::max(std::chrono::milliseconds(1), leaseLookupPeriod(granted, refresh));
        perSecond += 2000.0 / static_cast<double>(period.count());
        if (perSecond >= cap)
            return cap;
    }
    return std::clamp(static_cast<int>(perSecond + 0.5), floor, cap);
}

bool endedByExpiry(const LeaseTtl& lastAlive, std::chrono::steady_clock::time_point endedAt,
                   std::chrono::milliseconds refresh) {
    if (lastAlive.ttlSeconds < 0 || lastAlive.grantedTtlSeconds <= 0 ||
        lastAlive.fetchedAt == std::chrono::steady_clock::time_point{})
        return false;
    const bool trustworthy = !leaseTtlStale(lastAlive, endedAt, refresh);
    const bool ranOut = lastAlive.remainingAt(endedAt) <= 0;
    return trustworthy && ranOut && leaseUnrenewed(lastAlive);
}

bool leaseUnrenewed(const LeaseTtl& answer) {
    return answer.ttlSeconds >= 0 && 2 * (answer.ttlSeconds + 1) <= answer.grantedTtlSeconds;
}

} // namespace etcd
