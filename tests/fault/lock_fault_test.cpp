#include "etcdclient/blocking.h"
#include "fault/fault_workload.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "support/etcd_auth.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/stopped_member.h"
#include "support/waiting.h"

#include <algorithm>
#include <csignal>
#include <functional>
#include <gtest/gtest.h>

using namespace etcd;
using namespace lockscope::test;
using namespace std::chrono_literals;

namespace {

// Every scenario: the lock stays safe (no stale fenced write, no overlap beyond the TTL, each
// lock event once and in revision order) and nothing of ours is left on the server.
void expectSafeAndClean(const FaultReport& report, const std::string& scenario) {
    std::printf("%s\n", report.summary(scenario).c_str());
    std::fflush(stdout);
    EXPECT_EQ(report.staleGuardedWrites, 0);
    EXPECT_EQ(report.overlapsBeyondTtl, 0);
    EXPECT_EQ(report.eventOrderViolations, 0);
    EXPECT_EQ(report.keysLeft, 0);
    EXPECT_EQ(report.leasesLeft, 0);
    EXPECT_GT(report.perSecondAfter, 0) << "the lock did not recover";
}

// Runs the workload for `before`, then `fault` (which returns once the fault is over), then
// `after`, and reports.
FaultReport measure(FaultWorkload& workload, std::chrono::seconds before,
                    const std::function<void()>& fault, std::chrono::seconds after) {
    workload.start();
    std::this_thread::sleep_for(before);
    workload.markFaultStart();
    fault();
    workload.markFaultEnd();
    std::this_thread::sleep_for(after);
    return workload.report();
}

std::unique_ptr<LocalCluster> startCluster(int members) {
    auto cluster = std::make_unique<LocalCluster>(members);
    const Error started = cluster->start();
    EXPECT_TRUE(started.ok()) << started.message;
    return started.ok() ? std::move(cluster) : nullptr;
}

TEST(LockFaultTest, KillingAndRestartingTheLeaderUnder20ContendersLosesNoSession) {
    auto cluster = startCluster(3);
    ASSERT_TRUE(cluster);
    const int leader = leaderOf(*cluster);
    ASSERT_GE(leader, 0);
    FaultWorkloadOptions options;
    options.endpoints = endpointsFrom(*cluster, leader); // every stream runs there and dies
    // Ours only: an `etcdctl lock` (3.4) that reaches the head of the queue across the leader
    // change can stay there, holding up every waiter behind it, until the old leader is back
    // or it is killed: seen in 6 of 40 runs (also with only the surviving members as its
    // endpoints), its key first for 5-7 s, no revision written, every session of ours alive.
    // The other scenarios mix etcdctl in.
    options.ourContenders = 20;
    options.etcdctlContenders = 0;
    options.base = "/fault/leader-kill/";
    // A session is rightly lost when no keepalive is confirmed within its TTL (Session, design
    // 3a). With 3 s, the last answer can be a third of it old when the leader dies, leaving 2 s
    // for a 1-2 s election and the failover: all 20 were lost once in about five runs.
    options.ttlSeconds = 6;
    FaultWorkload workload(options);
    Error restarted;
    const FaultReport report = measure(
        workload, 3s,
        [&] {
            cluster->killMember(leader);
            std::this_thread::sleep_for(4s);
            restarted = cluster->restartMember(leader);
        },
        3s);
    ASSERT_TRUE(restarted.ok()) << restarted.message;
    expectSafeAndClean(report, "leader SIGKILL + restart, 20 ours, ttl 6");
    EXPECT_EQ(report.sessionsLost, 0);
}

TEST(LockFaultTest, StoppingTheFirstListedMemberFor8SecondsKeepsHalfTheRate) {
    auto cluster = startCluster(3);
    ASSERT_TRUE(cluster);
    // The first listed member is a follower. A stopped leader is the leader-kill scenario's
    // election plus an etcd bug: etcd before 3.4.28 (Debian ships 3.4.23), resumed, still takes
    // itself for the leader and revokes every lease it saw no keepalive for, through the new
    // leader (etcd-io/etcd#12528, fixed by #16822). Seen here: all 16 sessions' keepalives
    // answered every 0.5 s, then "requested lease not found" for all at once on SIGCONT.
    const int leader = leaderOf(*cluster);
    ASSERT_GE(leader, 0);
    const int first = (leader + 1) % 3;
    FaultWorkloadOptions options;
    options.endpoints = endpointsFrom(*cluster, first);
    options.base = "/fault/first-stopped/";
    // etcdctl (Go clientv3 3.4) does not leave a stopped member behind: a waiter of its that
    // landed there holds up the whole queue until the member wakes. It is not what is tested
    // here, so it is given the two members that keep running.
    options.etcdctlEndpoints = {options.endpoints[1], options.endpoints[2]};
    FaultWorkload workload(options);
    const FaultReport report = measure(
        workload, 3s,
        [&] {
            StoppedMember stopped(*cluster, first);
            std::this_thread::sleep_for(8s);
        },
        3s);
    expectSafeAndClean(report,
                       "first endpoint (a follower) SIGSTOP 8 s, 16 ours + 4 etcdctl, ttl 3");
    EXPECT_EQ(report.sessionsLost, 0);
    EXPECT_GE(report.perSecondDuring, report.perSecondBefore / 2);
}

TEST(LockFaultTest, RestartingEtcdWithAuthWhileAQueueWaitsKeepsTheQueueMoving) {
    auto cluster = startCluster(1);
    ASSERT_TRUE(cluster);
    const std::string refused = enableAuthentication(cluster->endpointList());
    ASSERT_TRUE(refused.empty()) << refused;
    FaultWorkloadOptions options;
    options.endpoints = cluster->endpoints();
    options.base = "/alice/fault/auth-restart/";
    options.username = authUser;
    options.password = authPassword;
    options.ourContenders = 8;
    options.etcdctlContenders = 2;
    options.ttlSeconds = 5;
    options.holdFor = 100ms; // a queue is waiting when etcd goes down
    FaultWorkload workload(options);
    Error restarted;
    const FaultReport report = measure(
        workload, 2s,
        [&] {
            restarted = cluster->restartMember(0);
            if (restarted.ok())
                restarted = cluster->waitReady();
        },
        3s);
    ASSERT_TRUE(restarted.ok()) << restarted.message;
    expectSafeAndClean(report, "etcd restart with auth, 8 ours + 2 etcdctl, ttl 5");
    EXPECT_EQ(report.sessionsLost, 0);
}

TEST(LockFaultTest, AWatcherLaggingBehindACompactionEverySecondReListsAndStaysRight) {
    auto cluster = startCluster(3);
    ASSERT_TRUE(cluster);
    // The member stopped under the lagging watcher is a follower, for the reason given in the
    // SIGSTOP scenario: a stopped leader costs an election and, resumed, revokes leases. Seen
    // here too: 7 sessions lost, which a stopped member outside the contenders' endpoints
    // cannot cost unless it leads.
    const int leader = leaderOf(*cluster);
    ASSERT_GE(leader, 0);
    const int lagged = (leader + 1) % 3;
    const std::string first = cluster->endpoint((lagged + 1) % 3);
    FaultWorkloadOptions options;
    options.endpoints = {first, cluster->endpoint((lagged + 2) % 3)};
    options.base = "/fault/compaction/";
    options.ourContenders = 8;
    options.etcdctlContenders = 2;
    FaultWorkload workload(options);
    // The lagging watcher: a LockMonitor on the member that is stopped while history goes. It
    // moves to the next member once its stream is found silent, and resumes from a revision
    // that has been compacted meanwhile: LockMonitor must re-list.
    auto laggingClient = workload.makeClient({cluster->endpoint(lagged), first});
    std::mutex mutex;
    std::vector<LockEvent> laggingEvents;
    auto lagging = LockMonitor::create(*laggingClient, {.prefix = workload.lockName() + "/"},
                                       [&](const std::vector<LockEvent>& events) {
                                           std::lock_guard lock(mutex);
                                           laggingEvents.insert(laggingEvents.end(), events.begin(),
                                                                events.end());
                                       });
    lagging->start();
    std::atomic<bool> compacting{true};
    std::atomic<int> compactions{0};
    std::thread compactor([&] {
        while (compacting) {
            pb::RangeRequest any;
            any.set_key(workload.fenceKey());
            auto now = call(workload.observer(), &Client::range, any);
            if (now)
                compactions += etcdctl(first, {"compact", std::to_string(now->header().revision())})
                                   .exitCode == 0;
            std::this_thread::sleep_for(1s);
        }
    });
    const FaultReport report = measure(
        workload, 2s,
        [&] {
            StoppedMember stopped(*cluster, lagged);
            std::this_thread::sleep_for(5s);
        },
        3s);
    compacting = false;
    compactor.join();
    EXPECT_GE(compactions, 8);
    expectSafeAndClean(report, "compaction every second, lagging watcher, 8 ours + 2 etcdctl");
    EXPECT_EQ(report.sessionsLost, 0);
    ASSERT_TRUE(eventually([&] { return lagging->state().locks.empty(); }, 5s))
        << "the lagging monitor still shows holders that are gone";
    lagging->stop();
    std::lock_guard lock(mutex);
    const auto recovered = std::count_if(laggingEvents.begin(), laggingEvents.end(),
                                         [](const LockEvent& e) { return e.recovered; });
    std::printf("[fault] lagging monitor: %zu events, %ld recovered by a re-list\n",
                laggingEvents.size(), static_cast<long>(recovered));
    EXPECT_GT(recovered, 0) << "the lagging monitor never re-listed after compaction";
}

TEST(LockFaultTest, AHolderStoppedPastItsTtlIsSucceededAndItsStaleFencedWriteFails) {
    auto cluster = startCluster(1);
    ASSERT_TRUE(cluster);
    FaultWorkloadOptions options;
    options.endpoints = cluster->endpoints();
    options.base = "/fault/holder-stopped/";
    options.ourContenders = 4;
    options.etcdctlContenders = 0;
    FaultWorkload workload(options);
    // The holder: a real `etcdctl lock`, which prints its key once it holds the lock.
    lockscope::process::ChildProcess holder(
        lockscope::process::etcdctlArgs(cluster->endpointList(),
                                        {"lock", workload.lockName(), "--ttl=3"}),
        {"ETCDCTL_API=3"});
    const auto key = holder.readLine(10s);
    ASSERT_TRUE(key) << "etcdctl lock did not acquire";
    pb::RangeRequest get;
    get.set_key(*key);
    auto held = call(workload.observer(), &Client::range, get);
    ASSERT_TRUE(held && held->kvs_size() == 1);
    const int64_t token = held->kvs(0).create_revision();
    auto legit = workload.guardedWriteAs(*key, token);
    ASSERT_TRUE(legit && *legit) << "the holder's own fenced write was refused";

    std::optional<Result<bool>> stale;
    const FaultReport report = measure(
        workload, 0s,
        [&] {
            holder.signal(SIGSTOP);
            std::this_thread::sleep_for(5s); // past its TTL: the lease expires, a waiter takes over
            holder.signal(SIGCONT);
            // The holder wakes up and writes as if it still held the lock.
            stale = workload.guardedWriteAs(*key, token);
            holder.signal(SIGTERM);
            holder.wait(5s);
        },
        2s);
    ASSERT_TRUE(*stale) << stale->error().message;
    EXPECT_FALSE(**stale) << "a stale holder's fenced write was applied";
    expectSafeAndClean(report, "holder (etcdctl lock) SIGSTOP past ttl 3, 4 ours waiting");
    EXPECT_EQ(report.sessionsLost, 0);
}

} // namespace
