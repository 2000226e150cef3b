#include "app/core/lock_history_report.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace lockscope {

namespace {

using std::chrono::milliseconds;

// What the events said so far about one lock.
struct Tally {
    LockHistoryReport::Lock lock;
    std::vector<milliseconds> holds, waits;
    // The longest, longest first (the earlier of equal ones first): at most longestWaitsKept.
    std::vector<LockHistoryReport::Wait> longestWaits;
    std::vector<std::string> holders; // now, in the order they took it
    // Each waiting key, with the holders seen while it waits.
    std::map<std::string, std::vector<std::string>> waiting;

    // An exact time joins `times`; a bound (began before it was seen, or recovered after a
    // gap) is only counted.
    void count(std::vector<milliseconds>& times, milliseconds time, bool bound) {
        if (bound)
            ++lock.bounds;
        else
            times.push_back(time);
    }
    void acquired(const etcd::LockEvent& event) {
        ++lock.acquisitions;
        for (auto& [key, seen] : waiting)
            if (key != event.key)
                seen.push_back(event.key);
        const auto found = waiting.find(event.key);
        if (event.waited) {
            count(waits, *event.waited, event.atLeast || event.recovered);
            keepIfLongest({event.key, event.lease, *event.waited, event.atLeast, event.revision,
                           event.observedAt,
                           found == waiting.end() ? std::vector<std::string>() : found->second});
        }
        if (found != waiting.end())
            waiting.erase(found);
        holders.push_back(event.key);
    }
    void keepIfLongest(LockHistoryReport::Wait wait) {
        const auto at =
            std::upper_bound(longestWaits.begin(), longestWaits.end(), wait.waited,
                             [](milliseconds waited, const LockHistoryReport::Wait& kept) {
                                 return waited > kept.waited;
                             });
        if (at - longestWaits.begin() >=
            static_cast<std::ptrdiff_t>(LockHistoryReport::longestWaitsKept))
            return;
        longestWaits.insert(at, std::move(wait));
        if (longestWaits.size() > LockHistoryReport::longestWaitsKept)
            longestWaits.pop_back();
    }
    void left(const etcd::LockEvent& event) {
        waiting.erase(event.key);
        std::erase(holders, event.key);
        if (event.held)
            count(holds, *event.held, event.atLeast || event.recovered);
        lock.expiries += event.kind == etcd::LockEventKind::Expired;
        lock.losses += event.kind == etcd::LockEventKind::Lost;
        lock.forceReleases += event.kind == etcd::LockEventKind::ForceReleased;
    }
};

} // namespace

LockHistoryReport::Spread LockHistoryReport::spreadOf(std::vector<milliseconds> times) {
    Spread spread;
    spread.count = times.size();
    if (times.empty())
        return spread;
    std::sort(times.begin(), times.end());
    const auto rank = [&](double percent) {
        const auto index = static_cast<std::size_t>(
            std::ceil(percent / 100.0 * static_cast<double>(times.size())));
        return times[std::max<std::size_t>(index, 1) - 1];
    };
    spread.p50 = rank(50);
    spread.p99 = rank(99);
    spread.max = times.back();
    return spread;
}

struct LockHistoryReport::Builder::Tallies {
    std::map<std::string, Tally> byLock;
    std::size_t gaps = 0;
};

LockHistoryReport::Builder::Builder()
    : tallies_(std::make_unique<Tallies>()) {}

LockHistoryReport::Builder::~Builder() = default;

void LockHistoryReport::Builder::add(const HistoryEntry& entry) {
    if (std::holds_alternative<HistoryAnomaly>(entry))
        return; // no wait or hold of its own
    if (std::holds_alternative<HistoryGap>(entry)) {
        ++tallies_->gaps;
        for (auto& [name, tally] : tallies_->byLock) {
            tally.holders.clear();
            tally.waiting.clear();
        }
        return;
    }
    const auto& event = std::get<etcd::LockEvent>(entry);
    Tally& tally = tallies_->byLock[event.lock];
    tally.lock.name = event.lock;
    tally.lock.recipe = event.recipe;
    switch (event.kind) {
    case etcd::LockEventKind::Enqueued: tally.waiting[event.key] = tally.holders; break;
    case etcd::LockEventKind::Acquired: tally.acquired(event); break;
    case etcd::LockEventKind::Released:
    case etcd::LockEventKind::Cancelled:
    case etcd::LockEventKind::Expired:
    case etcd::LockEventKind::ForceReleased:
    case etcd::LockEventKind::Lost: tally.left(event); break;
    default: break; // the key stays where it was
    }
}

LockHistoryReport LockHistoryReport::Builder::finish() {
    LockHistoryReport report;
    report.gaps_ = tallies_->gaps;
    for (auto& [name, tally] : tallies_->byLock) {
        Lock& lock = tally.lock;
        lock.holds = spreadOf(std::move(tally.holds));
        lock.waits = spreadOf(std::move(tally.waits));
        lock.longestWaits = std::move(tally.longestWaits);
        report.locks_.push_back(std::move(lock));
    }
    tallies_ = std::make_unique<Tallies>();
    return report;
}

LockHistoryReport::LockHistoryReport(const std::vector<HistoryEntry>& entries) {
    Builder builder;
    for (const HistoryEntry& entry : entries)
        builder.add(entry);
    *this = builder.finish();
}

} // namespace lockscope
