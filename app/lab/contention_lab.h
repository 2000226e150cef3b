#pragma once

#include "app/lab/lab_options.h"
#include "app/lab/mutual_exclusion_checker.h"
#include "etcdclient/client.h"
#include "etcdclient/locks/lock_monitor.h"

#include <functional>
#include <memory>
#include <mutex>
#include <random>

namespace etcd {
class Mutex;
class Session;
} // namespace etcd

namespace lockscope::lab {

struct LabCounters {
    int64_t acquisitions = 0;
    int64_t writesApplied = 0;           // resource writes that landed while the writer held
    int64_t writesRejectedByFencing = 0; // stale writes the fencing token stopped
    int64_t writesWithoutLock = 0;       // stale writes that landed: corruption without fencing
    int64_t stalls = 0, crashes = 0, slowHolds = 0;
};

// What etcd itself says of a hold: when the key's holding ended in the watch history.
struct GrantedEnd {
    std::string how; // "released" or "expired"
    int64_t revision = 0;
    std::chrono::system_clock::time_point at{};
};

struct LabReport {
    LabCounters counters;
    double seconds = 0;
    double acquisitionsPerSecond = 0;
    std::size_t overlapsFound = 0;               // split brains: pairs of overlapping holds
    std::size_t outlivingHolds = 0;              // holds a later one overlapped
    std::vector<Overlap> overlaps;               // the longest of them, longest first
    std::vector<std::optional<GrantedEnd>> ends; // for each overlap: etcd's end of the first hold
};

// Workers contending on one or several locks, each with its own session, with chaos (stalls,
// crashes, slow holds) and a fencing demo on a shared resource key. Workers are timers and
// callbacks on the client's thread, so 200 of them cost no threads. Thread-safe.
class ContentionLab : public std::enable_shared_from_this<ContentionLab> {
public:
    static std::shared_ptr<ContentionLab> create(etcd::Client& client, LabOptions options);
    ~ContentionLab();

    void start();
    // One acquisition per worker, then they idle (for showing a queue step by step).
    void step();
    // Every worker lets go (cancel, unlock) and revokes its session, crashed holders' leases and
    // sessions still being granted included; `done` runs (on the client's thread) once etcd
    // answered every revoke, so no key or lease of the lab is left and the client may go.
    void stop(std::function<void()> done = nullptr);
    bool running() const;

    LabCounters counters() const;
    // The crashed holds kept until their leases expire: at most one per worker.
    std::size_t crashedHoldsKept() const;
    // With `ends`, each overlap's end as etcd had it (read from the lab monitor's history: a
    // display refreshed every second leaves them out).
    LabReport report(bool ends = true) const;
    const LabOptions& options() const { return options_; }

private:
    struct Worker;
    ContentionLab(etcd::Client& client, LabOptions options);
    void launch(int cycles);
    void cycle(const std::shared_ptr<Worker>& worker);
    void onLocked(const std::shared_ptr<Worker>& worker, const etcd::Error& error);
    void onNextLocked(const std::shared_ptr<Worker>& worker, const etcd::Error& error);
    void finishHold(const std::shared_ptr<Worker>& worker, Clock::time_point from, bool stalled);
    // What the worker believed it held, for the checker; with mutex_ held, and bounded.
    void recordHold(const Worker& worker, Clock::time_point from, Clock::time_point to);
    void later(std::chrono::milliseconds delay, std::function<void()> task);
    bool proceed(Worker& worker);

    etcd::Client& client_;
    const LabOptions options_;
    mutable std::mutex mutex_;
    std::vector<std::shared_ptr<Worker>> workers_;
    std::shared_ptr<etcd::LockMonitor> monitor_;
    LabCounters counters_;
    MutualExclusionChecker checker_;
    Clock::time_point startedAt_{};
    Clock::time_point stoppedAt_{};
    bool running_ = false;
};

} // namespace lockscope::lab
