#include "app/ctl/lock_metrics.h"

#include "app/core/key_text.h"
#include "rpc.pb.h"

#include <algorithm>
#include <iterator>
#include <prometheus/text_serializer.h>
#include <sstream>

namespace lockscope {

namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

// From a quick handoff to a job that holds for half an hour.
const prometheus::Histogram::BucketBoundaries durationBuckets = {
    0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800};

constexpr etcd::AnomalyKind anomalyKinds[] = {
    etcd::AnomalyKind::NoLease, etcd::AnomalyKind::LeaseMismatch, etcd::AnomalyKind::NotALockKey,
    etcd::AnomalyKind::ExpiredLease};

double seconds(std::chrono::milliseconds duration) {
    return std::chrono::duration<double>(duration).count();
}

ClientMetric sample(double value, MetricType type, std::vector<ClientMetric::Label> labels = {}) {
    ClientMetric metric;
    metric.label = std::move(labels);
    (type == MetricType::Counter ? metric.counter.value : metric.gauge.value) = value;
    return metric;
}

// The families of one cluster, each series labelled cluster="name" when it has a name.
class FamilyList {
public:
    explicit FamilyList(const std::string& cluster)
        : cluster_(cluster) {}

    void write(std::string name, std::string help, MetricType type,
               std::vector<ClientMetric> metrics) {
        if (!cluster_.empty())
            for (ClientMetric& metric : metrics)
                metric.label.insert(metric.label.begin(), {"cluster", cluster_});
        families_.push_back(
            MetricFamily{std::move(name), std::move(help), type, std::move(metrics)});
    }
    std::vector<MetricFamily> take() { return std::move(families_); }

private:
    const std::string& cluster_;
    std::vector<MetricFamily> families_;
};

} // namespace

LockMetrics::LockMetrics(std::size_t maxLocks, std::string cluster)
    : maxLocks_(maxLocks)
    , cluster_(std::move(cluster))
    , wait_(durationBuckets)
    , hold_(durationBuckets) {}

LockMetrics::LockCounters& LockMetrics::countersOf(const std::string& lock) {
    if (auto found = tracked_.find(lock); found != tracked_.end())
        return found->second;
    if (tracked_.size() < maxLocks_)
        return tracked_[lock];
    return other_;
}

void LockMetrics::observe(const std::vector<etcd::LockEvent>& events) {
    for (const auto& event : events) {
        LockCounters& counters = countersOf(event.lock);
        counters.waitersVisible =
            event.recipe != etcd::QueueKind::SingleKey && event.recipe != etcd::QueueKind::Unknown;
        const bool holderGone = event.held.has_value(); // set only for the key that held
        switch (event.kind) {
        case etcd::LockEventKind::Acquired:
            ++counters.acquisitions;
            // The next holder of the same revision took over from the one that went.
            if (counters.lastHolderGoneAt == event.revision)
                ++counters.handoffs;
            if (event.waited && !event.recovered && !event.atLeast) // exact times only
                wait_.Observe(seconds(*event.waited));
            break;
        case etcd::LockEventKind::Expired:
        case etcd::LockEventKind::Released:
        case etcd::LockEventKind::Cancelled:
        case etcd::LockEventKind::ForceReleased:
            if (!holderGone)
                break;
            counters.lastHolderGoneAt = event.revision;
            if (event.kind == etcd::LockEventKind::Expired)
                ++counters.expiredLosses;
            if (event.held && !event.recovered && !event.atLeast)
                hold_.Observe(seconds(*event.held));
            break;
        case etcd::LockEventKind::Enqueued:
        case etcd::LockEventKind::Proclaimed:
        case etcd::LockEventKind::Lost: break;
        }
    }
}

std::vector<MetricFamily> LockMetrics::families(const etcd::LockMonitorState& state,
                                                const etcd::WaitForGraph& graph,
                                                std::chrono::steady_clock::time_point now) {
    std::map<etcd::QueueKind, double> recipes = {{etcd::QueueKind::Mutex, 0},
                                                 {etcd::QueueKind::Election, 0},
                                                 {etcd::QueueKind::RwMutex, 0},
                                                 {etcd::QueueKind::SingleKey, 0},
                                                 {etcd::QueueKind::Unknown, 0}};
    for (const auto& [name, queue] : state.locks) {
        // A lock seen before any event of it gets its series too.
        countersOf(name).waitersVisible = queue->waitersVisible();
        ++recipes[queue->kind()];
    }

    // Gauges of the locks with series of their own, then the rest added up.
    std::vector<ClientMetric> held, waiters, ttls, acquisitions, handoffs, losses;
    auto add = [&](const std::string& label, const LockCounters& counters, double isHeld,
                   double waiting) {
        std::vector<ClientMetric::Label> lock = {{"lock", label}};
        held.push_back(sample(isHeld, MetricType::Gauge, lock));
        if (counters.waitersVisible)
            waiters.push_back(sample(waiting, MetricType::Gauge, lock));
        acquisitions.push_back(sample(counters.acquisitions, MetricType::Counter, lock));
        handoffs.push_back(sample(counters.handoffs, MetricType::Counter, lock));
        lock.push_back({"reason", "expired"});
        losses.push_back(sample(counters.expiredLosses, MetricType::Counter, std::move(lock)));
    };
    for (const auto& [name, counters] : tracked_) {
        const auto found = state.locks.find(name);
        const etcd::LockKey* holder =
            found == state.locks.end() ? nullptr : found->second->holder();
        const std::string label = displayKey(name);
        add(label, counters, holder ? 1 : 0,
            holder ? static_cast<double>(found->second->keys.size() - found->second->holderCount())
                   : 0);
        if (!holder)
            continue;
        const auto lease = state.leases.find(holder->lease);
        // A stale countdown is no figure of the lease now: absent rather than wrong.
        if (lease != state.leases.end() && lease->second.ttlSeconds >= 0 && !lease->second.stale)
            ttls.push_back(sample(std::max(0.0, lease->second.remainingAt(now)), MetricType::Gauge,
                                  {{"lock", label}}));
    }
    if (tracked_.size() >= maxLocks_) {
        double otherHeld = 0, otherWaiting = 0;
        for (const auto& [name, queue] : state.locks)
            if (!tracked_.count(name) && !queue->keys.empty()) {
                ++otherHeld;
                otherWaiting += static_cast<double>(queue->keys.size() - queue->holderCount());
            }
        add(otherLocks, other_, otherHeld, otherWaiting);
    }

    FamilyList out(cluster_);
    out.write("lockscope_lock_held",
              "1 when the lock has a holder (for lock=\"(other)\": how many of those locks do).",
              MetricType::Gauge, std::move(held));
    out.write("lockscope_lock_waiters",
              "Keys queued behind the holder; none for a lock whose waiters hold no key "
              "(recipe single-key), where how many wait is unknown.",
              MetricType::Gauge, std::move(waiters));
    out.write("lockscope_lease_ttl_remaining_seconds",
              "Time to live left on the holder's lease, counted down from its last lookup; absent "
              "while that lookup is older than about the lease's TTL (stale).",
              MetricType::Gauge, std::move(ttls));
    out.write("lockscope_lock_acquisitions_total", "Holders observed taking the lock.",
              MetricType::Counter, std::move(acquisitions));
    out.write("lockscope_lock_handoffs_total",
              "Acquisitions by a waiter at the revision its predecessor's key went.",
              MetricType::Counter, std::move(handoffs));
    out.write("lockscope_lock_losses_total",
              "Holders that lost the lock without releasing it: reason=\"expired\" when etcd's "
              "answers show the lease ran out unrenewed (a stale TTL is no evidence). etcd reports "
              "a release, a deletion by someone else and a lease "
              "revoke alike as a delete, so those are not told apart.",
              MetricType::Counter, std::move(losses));
    out.write("lockscope_lock_wait_seconds",
              "From enqueued to acquired, every lock; waits that began before the exporter "
              "saw them are left out.",
              MetricType::Histogram, {wait_.Collect()});
    out.write("lockscope_lock_hold_seconds",
              "From acquired to released or expired, every lock; holds that began before the "
              "exporter saw them are left out.",
              MetricType::Histogram, {hold_.Collect()});

    std::map<etcd::AnomalyKind, double> anomalyCounts;
    for (const auto& [lock, anomalies] : state.anomalies)
        for (const auto& anomaly : anomalies)
            ++anomalyCounts[anomaly.kind];
    std::vector<ClientMetric> anomalies;
    for (const auto kind : anomalyKinds)
        anomalies.push_back(sample(anomalyCounts[kind], MetricType::Gauge,
                                   {{"kind", etcd::anomalyKindName(kind)}}));
    out.write("lockscope_anomalies", "Lock keys that look wrong now, by kind.", MetricType::Gauge,
              std::move(anomalies));
    std::vector<ClientMetric> locks;
    for (const auto& [recipe, count] : recipes)
        locks.push_back(
            sample(count, MetricType::Gauge, {{"recipe", etcd::queueKindName(recipe)}}));
    out.write("lockscope_locks", "Locks under the prefix now, by recipe.", MetricType::Gauge,
              std::move(locks));
    out.write("lockscope_monitor_revision", "The etcd revision the figures are as of.",
              MetricType::Gauge, {sample(static_cast<double>(state.revision), MetricType::Gauge)});
    out.write("lockscope_monitor_up",
              "1 while the lock monitor's snapshot is loaded and its watch runs.",
              MetricType::Gauge, {sample(state.live ? 1 : 0, MetricType::Gauge)});
    if (alarms_) {
        // Every kind etcd knows, 0 when not raised: an alert compares a value, not an absence.
        std::map<int, double> raised{{etcdserverpb::NOSPACE, 0}, {etcdserverpb::CORRUPT, 0}};
        for (const etcd::RaisedAlarm& alarm : *alarms_)
            raised[alarm.type] = 1;
        std::vector<ClientMetric> alarms;
        for (const auto& [type, value] : raised)
            alarms.push_back(
                sample(value, MetricType::Gauge, {{"kind", etcd::alarmTypeName(type)}}));
        out.write("lockscope_etcd_alarm",
                  "1 while etcd has this alarm raised on any member (NOSPACE: the database "
                  "reached its quota and every write, locks included, is refused).",
                  MetricType::Gauge, std::move(alarms));
    }
    out.write("lockscope_deadlocks",
              "Groups of sessions (leases) waiting on each other in a cycle now: none lets go "
              "until a lease ends (lockscopectl blockers names the lease to revoke).",
              MetricType::Gauge,
              {sample(static_cast<double>(graph.deadlocks().size()), MetricType::Gauge)});
    out.write("lockscope_blocked_sessions",
              "Sessions (leases) with a key waiting behind another session's key now.",
              MetricType::Gauge,
              {sample(static_cast<double>(graph.sessionsWaiting()), MetricType::Gauge)});
    // Per lock held by a root blocker that someone waits on: how many sessions that root
    // blocks, directly or through others; the locks without series of their own, the most.
    std::map<std::string, double> rootWaiters;
    for (const etcd::RootBlocker& root : graph.rootBlockers())
        for (const etcd::Wait& wait : graph.waitsOn(root.session)) {
            const std::string label =
                tracked_.count(wait.lock) ? displayKey(wait.lock) : otherLocks;
            rootWaiters[label] = std::max(rootWaiters[label], static_cast<double>(root.transitive));
        }
    std::vector<ClientMetric> roots;
    for (const auto& [label, count] : rootWaiters)
        roots.push_back(sample(count, MetricType::Gauge, {{"lock", label}}));
    out.write("lockscope_root_blocker_waiters",
              "For a lock whose holder waits on nobody while others wait on it: how many "
              "sessions that holder blocks, directly or through others.",
              MetricType::Gauge, std::move(roots));
    out.write("lockscope_build_info", "Always 1; the exporter's version is a label.",
              MetricType::Gauge, {sample(1, MetricType::Gauge, {{"version", LOCKSCOPE_VERSION}})});
    return out.take();
}

std::string renderMetrics(std::vector<std::vector<MetricFamily>> clusters) {
    // The format wants each family once, its series together: the clusters' are merged by name,
    // in the order first written.
    std::vector<MetricFamily> merged;
    for (auto& families : clusters)
        for (MetricFamily& family : families) {
            const auto same = std::find_if(merged.begin(), merged.end(), [&](const auto& kept) {
                return kept.name == family.name;
            });
            if (same == merged.end())
                merged.push_back(std::move(family));
            else
                std::move(family.metric.begin(), family.metric.end(),
                          std::back_inserter(same->metric));
        }
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, merged);
    return out.str();
}

} // namespace lockscope
