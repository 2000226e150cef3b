#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace etcd {

struct LatencySample {
    std::string method; // gRPC method, e.g. "KV.Range"
    std::chrono::steady_clock::time_point finishedAt;
    std::chrono::microseconds roundTrip;
    bool ok;
};

struct LatencyStats {
    std::size_t count = 0;
    double p50Ms = 0, p90Ms = 0, p99Ms = 0, maxMs = 0;
};

// Every call's round trip by method: a live feed for graphs, and percentiles over a sliding
// window. Thread-safe; listeners run on the thread that records (the client's queue thread).
class LatencyRecorder {
public:
    using Listener = std::function<void(const LatencySample&)>;

    explicit LatencyRecorder(std::chrono::seconds window = std::chrono::seconds(60),
                             std::size_t maxSamplesPerMethod = 100000);

    void record(const std::string& method, std::chrono::microseconds roundTrip, bool ok);

    std::map<std::string, LatencyStats> stats() const;
    LatencyStats stats(const std::string& method) const;

    // Returns an id for removeListener. After removeListener returns the listener is not running
    // and will not run again.
    int addListener(Listener listener);
    void removeListener(int id);

private:
    struct Entry {
        std::chrono::steady_clock::time_point at;
        std::chrono::microseconds roundTrip;
    };
    void prune(std::deque<Entry>& entries, std::chrono::steady_clock::time_point now) const;
    LatencyStats summarize(const std::deque<Entry>& entries) const;

    const std::chrono::seconds window_;
    const std::size_t maxSamples_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::deque<Entry>> samples_;

    std::recursive_mutex listenersMutex_;
    std::map<int, Listener> listeners_;
    int nextListenerId_ = 1;
};

// Nearest-rank percentile of an ascending vector; 0 for an empty one.
double percentile(const std::vector<double>& sortedAscending, double p);

// Count, p50, p90, p99 and max of durations in milliseconds (in any order).
LatencyStats summarizeMs(std::vector<double> ms);

} // namespace etcd
