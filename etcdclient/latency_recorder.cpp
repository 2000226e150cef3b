#include "etcdclient/latency_recorder.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace etcd {

double percentile(const std::vector<double>& sortedAscending, double p) {
    if (sortedAscending.empty())
        return 0;
    const double rank = std::ceil(p / 100.0 * static_cast<double>(sortedAscending.size()));
    const auto index = static_cast<std::size_t>(std::max(1.0, rank)) - 1;
    return sortedAscending[std::min(index, sortedAscending.size() - 1)];
}

LatencyRecorder::LatencyRecorder(std::chrono::seconds window, std::size_t maxSamplesPerMethod)
    : window_(window)
    , maxSamples_(maxSamplesPerMethod) {}

void LatencyRecorder::record(const std::string& method, std::chrono::microseconds roundTrip,
                             bool ok) {
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        auto& entries = samples_[method];
        entries.push_back({now, roundTrip});
        if (entries.size() > maxSamples_)
            entries.pop_front();
        prune(entries, now);
    }
    std::lock_guard lock(listenersMutex_);
    if (listeners_.empty())
        return;
    const LatencySample sample{method, now, roundTrip, ok};
    for (auto& [id, listener] : listeners_)
        listener(sample);
}

void LatencyRecorder::prune(std::deque<Entry>& entries,
                            std::chrono::steady_clock::time_point now) const {
    while (!entries.empty() && now - entries.front().at > window_)
        entries.pop_front();
}

LatencyStats summarizeMs(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    LatencyStats s;
    s.count = ms.size();
    s.p50Ms = percentile(ms, 50);
    s.p90Ms = percentile(ms, 90);
    s.p99Ms = percentile(ms, 99);
    s.maxMs = ms.empty() ? 0 : ms.back();
    return s;
}

LatencyStats LatencyRecorder::summarize(const std::deque<Entry>& entries) const {
    std::vector<double> ms;
    ms.reserve(entries.size());
    for (const auto& e : entries)
        ms.push_back(static_cast<double>(e.roundTrip.count()) / 1000.0);
    return summarizeMs(std::move(ms));
}

std::map<std::string, LatencyStats> LatencyRecorder::stats() const {
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    std::map<std::string, LatencyStats> out;
    for (auto& [method, entries] : samples_) {
        prune(entries, now);
        out[method] = summarize(entries);
    }
    return out;
}

LatencyStats LatencyRecorder::stats(const std::string& method) const {
    std::lock_guard lock(mutex_);
    auto it = samples_.find(method);
    if (it == samples_.end())
        return {};
    prune(it->second, std::chrono::steady_clock::now());
    return summarize(it->second);
}

int LatencyRecorder::addListener(Listener listener) {
    std::lock_guard lock(listenersMutex_);
    const int id = nextListenerId_++;
    listeners_.emplace(id, std::move(listener));
    return id;
}

void LatencyRecorder::removeListener(int id) {
    std::lock_guard lock(listenersMutex_);
    listeners_.erase(id);
}

} // namespace etcd
