#pragma once

#include "etcdclient/alarms.h"
#include "etcdclient/locks/lock_monitor.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <prometheus/histogram.h>
#include <prometheus/metric_family.h>
#include <string>
#include <vector>

namespace lockscope {

// The Prometheus metrics of `lockscopectl exporter`: counters fed by the lock monitor's events,
// gauges read from its state at scrape time, written in the text exposition format 0.0.4.
// Only the lock's display name becomes a label, never a key or a lease. The first `maxLocks`
// lock names seen get series of their own, for the exporter's life (a counter must not jump
// between series); every other lock is added up under lock="(other)". With a `cluster` name
// (the saved profile's, never endpoints or credentials), every series carries cluster="name",
// so one Prometheus (and one exporter serving several clusters) tells the clusters apart.
class LockMetrics {
public:
    static constexpr const char* otherLocks = "(other)";

    explicit LockMetrics(std::size_t maxLocks, std::string cluster = {});

    void observe(const std::vector<etcd::LockEvent>& events);
    // etcd's raised alarms as last asked, or nothing when not known (no lockscope_etcd_alarm).
    void setAlarms(std::optional<std::vector<etcd::RaisedAlarm>> alarms) {
        alarms_ = std::move(alarms);
    }
    const std::optional<std::vector<etcd::RaisedAlarm>>& alarms() const { return alarms_; }
    // The families of series now, in the order written; `graph` is who waits for whom among
    // `state`'s locks. renderMetrics() writes them. The series are bounded by `maxLocks`.
    std::vector<prometheus::MetricFamily> families(const etcd::LockMonitorState& state,
                                                   const etcd::WaitForGraph& graph,
                                                   std::chrono::steady_clock::time_point now);

private:
    // The counters of one lock (or of every lock without series of its own).
    struct LockCounters {
        double acquisitions = 0;
        double handoffs = 0;
        double expiredLosses = 0;
        int64_t lastHolderGoneAt = 0; // the revision the holder's key went at
        // False for a lock whose waiters hold no key (a single-key lock): how many wait is
        // unknown, so it has no waiters series rather than a 0.
        bool waitersVisible = true;
    };
    LockCounters& countersOf(const std::string& lock);

    const std::size_t maxLocks_;
    const std::string cluster_;
    std::map<std::string, LockCounters> tracked_; // by lock name (bytes)
    LockCounters other_;
    prometheus::Histogram wait_;
    prometheus::Histogram hold_;
    std::optional<std::vector<etcd::RaisedAlarm>> alarms_;
};

// The text exposition (format 0.0.4) of one or several clusters' families: each family once,
// holding every cluster's series of it.
std::string renderMetrics(std::vector<std::vector<prometheus::MetricFamily>> clusters);

} // namespace lockscope
