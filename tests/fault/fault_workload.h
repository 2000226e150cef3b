#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/lock_monitor.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace lockscope::test {

struct FaultWorkloadOptions {
    std::vector<std::string> endpoints; // in the order our clients and etcdctl are given them
    std::string base;                   // the lock is <base>lock, the fenced key <base>fence
    int ourContenders = 16;             // Session + Mutex, each on its own Client
    int etcdctlContenders = 4;          // real `etcdctl lock` processes, one after another
    std::vector<std::string> etcdctlEndpoints; // when not `endpoints`
    int64_t ttlSeconds = 3;
    std::string username; // with auth: for our clients and etcdctl
    std::string password;
    std::chrono::milliseconds holdFor{30};
};

// What a scenario measured; the asserted fields must be zero.
struct FaultReport {
    double perSecondBefore = 0, perSecondDuring = 0, perSecondAfter = 0;
    int acquisitions = 0;
    int sessionsLost = 0;
    double recoverySeconds = 0; // the longest pause in acquisitions since the fault began
    // The longest one key stayed first in the queue (sampled every 100 ms), and whether it was
    // one of ours: names who held a pause up.
    double longestHeadSeconds = 0;
    bool longestHeadOurs = false;
    int keysLeft = 0, leasesLeft = 0;
    int staleGuardedWrites = 0;   // fenced writes applied after a newer holder's
    int overlapsBeyondTtl = 0;    // pairs of our holds overlapping by more than the TTL
    int eventOrderViolations = 0; // lock events repeated or out of revision order
    int recoveredEvents = 0;      // lock events inferred by a re-list after a gap
    std::string summary(const std::string& scenario) const;
};

// A lock under contention by our Mutexes and real `etcdctl lock` processes, each hold doing a
// fencing-guarded write, watched by a LockMonitor and a watch on the fenced key, so a fault
// scenario can measure throughput and check that safety held.
class FaultWorkload {
public:
    explicit FaultWorkload(FaultWorkloadOptions options);
    ~FaultWorkload();

    void start();
    void markFaultStart();
    void markFaultEnd();
    // Stops every contender, releasing or cancelling what it holds, and waits for them.
    void stop();
    // After stop(): waits up to the TTL and a margin for our keys and every lease to go, then
    // checks the records.
    FaultReport report();

    std::string lockName() const { return options_.base + "lock"; }
    std::string fenceKey() const { return options_.base + "fence"; }
    etcd::Client& observer() { return *observer_; }
    // The fenced write a holder of `key` created at `token` does: applied only while that key
    // is still the one created at `token`.
    etcd::Result<bool> guardedWriteAs(const std::string& key, int64_t token);
    std::unique_ptr<etcd::Client> makeClient(std::vector<std::string> endpoints = {}) const;

private:
    using Clock = std::chrono::steady_clock;
    struct Hold {
        Clock::time_point from, to;
    };
    void runOurs();
    void runEtcdctl();
    void recordAcquisition(Clock::time_point at);
    void watchQueueHead();
    std::pair<int, int> left(); // our lock keys and every lease on the cluster

    const FaultWorkloadOptions options_;
    std::unique_ptr<etcd::Client> observer_;
    std::shared_ptr<etcd::LockMonitor> monitor_;
    etcd::WatchHandle fenceWatch_;
    std::atomic<bool> stopping_{false};
    std::atomic<int> sessionsLost_{0};
    std::vector<std::thread> threads_;
    Clock::time_point startedAt_{}, faultStart_{}, faultEnd_{}, stoppedAt_{};

    std::mutex mutex_; // guards the records below
    std::vector<Clock::time_point> acquisitions_;
    std::vector<Hold> holds_;
    std::vector<std::pair<int64_t, int64_t>> fenceWrites_; // (revision, token) as watched
    std::vector<etcd::LockEvent> events_;
    std::set<int64_t> ourLeases_;
    std::string head_; // the queue's first key when last sampled
    Clock::time_point headSince_{};
    bool headOurs_ = false;
    double longestHeadSeconds_ = 0;
    bool longestHeadOurs_ = false;
};

} // namespace lockscope::test
