#include "etcdclient/lease_ttl.h"

#include <cstdio>

namespace etcd {

namespace {

// "3.0 days" or "285.4 years": the scale a long TTL is felt in.
std::string longDuration(int64_t seconds) {
    constexpr double day = 24 * 60 * 60, year = 365.25 * day;
    char text[64];
    if (seconds >= year)
        std::snprintf(text, sizeof text, "%.1f years", static_cast<double>(seconds) / year);
    else
        std::snprintf(text, sizeof text, "%.1f days", static_cast<double>(seconds) / day);
    return text;
}

} // namespace

std::string leaseTtlProblem(int64_t ttlSeconds) {
    if (ttlSeconds < 1)
        return "a lease TTL is at least 1 s (etcd raises it to its minimum), not " +
               std::to_string(ttlSeconds);
    if (ttlSeconds > maxLeaseTtlSeconds)
        return "a lease TTL of " + std::to_string(ttlSeconds) + " s is above etcd's limit of " +
               std::to_string(maxLeaseTtlSeconds) + " s (" + longDuration(maxLeaseTtlSeconds) +
               "); etcd would refuse it";
    return {};
}

std::string longLeaseTtlWarning(int64_t ttlSeconds) {
    if (ttlSeconds <= longLeaseTtlSeconds)
        return {};
    return "a lease TTL of " + std::to_string(ttlSeconds) + " s (" + longDuration(ttlSeconds) +
           ") keeps the lock taken that long if its holder dies without releasing it";
}

} // namespace etcd
