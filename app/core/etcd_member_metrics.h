#pragma once

#include "app/core/prometheus_text.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lockscope {

// A Prometheus histogram as served: cumulative counts by upper bound, ascending, +Inf last.
struct MetricHistogram {
    std::vector<std::pair<double, double>> buckets;
};

// What matters for locks in one etcd member's /metrics (etcd 3.4's names). Counters are as
// served, since the member started; compare two scrapes with ratesBetween().
struct EtcdMemberMetrics {
    bool hasLeader = false;
    bool isLeader = false;
    double leaderChanges = 0; // counter
    // Counters. Lease expiries are counted by the leader, which revokes expired leases; grants,
    // revokes and renewals by every member as it applies them.
    double leasesExpired = 0;
    double leasesGranted = 0;
    double leasesRevoked = 0;
    double leasesRenewed = 0;
    double slowWatchers = 0;  // watchers behind the store, waiting for etcd's catch-up pass
    double pendingEvents = 0; // events queued for slow watchers
    double currentRevision = 0;
    double compactRevision = 0;
    double dbSizeBytes = 0;
    double dbSizeInUseBytes = 0;
    double quotaBytes = 0;
    double proposalsPending = 0;
    double proposalsFailed = 0; // counter
    MetricHistogram walFsyncSeconds;
    MetricHistogram backendCommitSeconds;
    // Names of the metrics above that the member did not serve (another etcd version).
    std::vector<std::string> missing;
};

EtcdMemberMetrics etcdMemberMetrics(const std::vector<MetricSample>& samples);

// How one member changed between two scrapes `seconds` apart. A counter that went down was
// reset by a restart and counts from zero, as Prometheus's rate() takes it.
struct EtcdMemberRates {
    double leaderChanges = 0; // seen in the interval (a count, not a rate)
    double leasesExpired = 0; // in the interval (a count)
    double leasesExpiredPerSecond = 0;
    double leasesGrantedPerSecond = 0;
    double leasesRevokedPerSecond = 0;
    double leasesRenewedPerSecond = 0;
    double proposalsFailedPerSecond = 0;
    // Over the interval's observations only; std::nullopt when there were none.
    std::optional<double> walFsyncP99Seconds;
    std::optional<double> backendCommitP99Seconds;
};

EtcdMemberRates ratesBetween(const EtcdMemberMetrics& before, const EtcdMemberMetrics& after,
                             double seconds);

// The q-quantile (0..1) of the observations a histogram gained from `before` to `after`,
// interpolated linearly inside its bucket as Prometheus's histogram_quantile() does; the
// highest finite bound when it falls in the +Inf bucket. std::nullopt without observations.
std::optional<double> quantileBetween(const MetricHistogram& before, const MetricHistogram& after,
                                      double q);

} // namespace lockscope
