#include "app/core/etcd_member_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

namespace lockscope {

namespace {

struct Wanted {
    const char* name;
    double EtcdMemberMetrics::*field;
};

// Gauges and counters, each a single unlabelled sample in etcd 3.4.
constexpr Wanted plainSamples[] = {
    {"etcd_server_leader_changes_seen_total", &EtcdMemberMetrics::leaderChanges},
    {"etcd_debugging_server_lease_expired_total", &EtcdMemberMetrics::leasesExpired},
    {"etcd_debugging_lease_granted_total", &EtcdMemberMetrics::leasesGranted},
    {"etcd_debugging_lease_revoked_total", &EtcdMemberMetrics::leasesRevoked},
    {"etcd_debugging_lease_renewed_total", &EtcdMemberMetrics::leasesRenewed},
    {"etcd_debugging_mvcc_slow_watcher_total", &EtcdMemberMetrics::slowWatchers},
    {"etcd_debugging_mvcc_pending_events_total", &EtcdMemberMetrics::pendingEvents},
    {"etcd_debugging_mvcc_current_revision", &EtcdMemberMetrics::currentRevision},
    {"etcd_debugging_mvcc_compact_revision", &EtcdMemberMetrics::compactRevision},
    {"etcd_mvcc_db_total_size_in_bytes", &EtcdMemberMetrics::dbSizeBytes},
    {"etcd_mvcc_db_total_size_in_use_in_bytes", &EtcdMemberMetrics::dbSizeInUseBytes},
    {"etcd_server_quota_backend_bytes", &EtcdMemberMetrics::quotaBytes},
    {"etcd_server_proposals_pending", &EtcdMemberMetrics::proposalsPending},
    {"etcd_server_proposals_failed_total", &EtcdMemberMetrics::proposalsFailed},
};

constexpr const char* HasLeader = "etcd_server_has_leader";
constexpr const char* IsLeader = "etcd_server_is_leader";
constexpr const char* WalFsync = "etcd_disk_wal_fsync_duration_seconds_bucket";
constexpr const char* BackendCommit = "etcd_disk_backend_commit_duration_seconds_bucket";

// The bucket's upper bound, or false when `le` is missing or not a number.
bool upperBound(const MetricSample& sample, double& bound) {
    const std::string* le = sample.label("le");
    const auto value = le ? parsePrometheusValue(*le) : std::nullopt;
    if (value)
        bound = *value;
    return value.has_value();
}

double increase(double before, double after) {
    return after >= before ? after - before : after; // down: reset by a restart
}

} // namespace

EtcdMemberMetrics etcdMemberMetrics(const std::vector<MetricSample>& samples) {
    std::map<std::string_view, const MetricSample*> byName;
    EtcdMemberMetrics metrics;
    for (const MetricSample& sample : samples) {
        double bound = 0;
        if (sample.name == WalFsync && upperBound(sample, bound))
            metrics.walFsyncSeconds.buckets.emplace_back(bound, sample.value);
        else if (sample.name == BackendCommit && upperBound(sample, bound))
            metrics.backendCommitSeconds.buckets.emplace_back(bound, sample.value);
        else
            byName.emplace(sample.name, &sample);
    }
    for (const Wanted& wanted : plainSamples) {
        if (auto found = byName.find(wanted.name); found != byName.end())
            metrics.*wanted.field = found->second->value;
        else
            metrics.missing.emplace_back(wanted.name);
    }
    for (auto [name, flag] : {std::pair{HasLeader, &EtcdMemberMetrics::hasLeader},
                              std::pair{IsLeader, &EtcdMemberMetrics::isLeader}}) {
        if (auto found = byName.find(name); found != byName.end())
            metrics.*flag = found->second->value != 0;
        else
            metrics.missing.emplace_back(name);
    }
    for (auto [name, histogram] : {std::pair{WalFsync, &metrics.walFsyncSeconds},
                                   std::pair{BackendCommit, &metrics.backendCommitSeconds}}) {
        auto& buckets = histogram->buckets;
        std::sort(buckets.begin(), buckets.end());
        if (buckets.empty())
            metrics.missing.emplace_back(name);
    }
    return metrics;
}

std::optional<double> quantileBetween(const MetricHistogram& before, const MetricHistogram& after,
                                      double q) {
    // Bucket counts gained in the interval; a histogram that shrank was reset and counts whole.
    const bool reset =
        before.buckets.size() != after.buckets.size() ||
        (!after.buckets.empty() && after.buckets.back().second < before.buckets.back().second);
    std::vector<std::pair<double, double>> gained = after.buckets;
    if (!reset)
        for (std::size_t i = 0; i < gained.size(); ++i)
            gained[i].second -= before.buckets[i].second;
    if (gained.empty() || gained.back().second <= 0)
        return std::nullopt;
    const double rank = q * gained.back().second;
    double lowerBound = 0;
    double lowerCount = 0;
    for (const auto& [bound, count] : gained) {
        if (count >= rank) {
            if (std::isinf(bound))
                return lowerBound;
            const double inBucket = count - lowerCount;
            return inBucket <= 0
                       ? bound
                       : lowerBound + (bound - lowerBound) * (rank - lowerCount) / inBucket;
        }
        lowerBound = bound;
        lowerCount = count;
    }
    return lowerBound;
}

EtcdMemberRates ratesBetween(const EtcdMemberMetrics& before, const EtcdMemberMetrics& after,
                             double seconds) {
    EtcdMemberRates rates;
    if (seconds <= 0)
        return rates;
    auto perSecond = [&](double EtcdMemberMetrics::*field) {
        return increase(before.*field, after.*field) / seconds;
    };
    rates.leaderChanges = increase(before.leaderChanges, after.leaderChanges);
    rates.leasesExpired = increase(before.leasesExpired, after.leasesExpired);
    rates.leasesExpiredPerSecond = perSecond(&EtcdMemberMetrics::leasesExpired);
    rates.leasesGrantedPerSecond = perSecond(&EtcdMemberMetrics::leasesGranted);
    rates.leasesRevokedPerSecond = perSecond(&EtcdMemberMetrics::leasesRevoked);
    rates.leasesRenewedPerSecond = perSecond(&EtcdMemberMetrics::leasesRenewed);
    rates.proposalsFailedPerSecond = perSecond(&EtcdMemberMetrics::proposalsFailed);
    rates.walFsyncP99Seconds = quantileBetween(before.walFsyncSeconds, after.walFsyncSeconds, 0.99);
    rates.backendCommitP99Seconds =
        quantileBetween(before.backendCommitSeconds, after.backendCommitSeconds, 0.99);
    return rates;
}

} // namespace lockscope
