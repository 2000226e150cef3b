#pragma once

#include "etcdclient/latency_recorder.h"
#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <map>
#include <vector>

namespace etcd {

// Percentiles of one duration figure, in milliseconds.
using DurationStats = LatencyStats;

// Derived figures over the events of a sliding window.
struct LockStats {
    std::size_t acquisitions = 0;
    double acquisitionsPerSecond = 0;
    DurationStats wait;    // enqueued to acquired
    DurationStats hold;    // acquired to released or expired
    DurationStats handoff; // a holder gone to the next holder of that lock observed
    std::size_t expiries = 0;
};

// Figures over the events observed in (now - window, now]; recovered events count for
// acquisitions and expiries but carry no reliable durations, so they are left out of those.
LockStats computeLockStats(const std::vector<LockEvent>& history, std::chrono::seconds window,
                           std::chrono::system_clock::time_point now);

} // namespace etcd
