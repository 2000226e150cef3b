#include "app/lab/contention_lab.h"
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "support/etcd_fixture.h"
#include "support/waiting.h"

#include <algorithm>
#include <cstdio>
#include <future>
#include <set>
#include <thread>

using namespace lockscope::lab;
using namespace std::chrono_literals;
using lockscope::test::EtcdTest;

namespace {

class ContentionLabIntegrationTest : public EtcdTest {
protected:
    LabOptions optionsUnder(const std::string& sub) {
        LabOptions o;
        o.locks = {prefix() + sub + "/lock-a", prefix() + sub + "/lock-b"};
        o.resourceKey = prefix() + sub + "-resource";
        return o;
    }
    std::size_t keysUnder(const std::string& p) {
        etcd::pb::RangeRequest r;
        r.set_key(p);
        r.set_range_end(etcd::prefixRangeEnd(p));
        r.set_count_only(true);
        auto got = etcd::call(*client, &etcd::Client::range, r);
        return got ? static_cast<std::size_t>(got->count()) : 999;
    }
    std::set<int64_t> leases() {
        auto listed =
            etcd::call(*client, &etcd::Client::leaseLeases, etcd::pb::LeaseLeasesRequest{});
        EXPECT_TRUE(listed) << listed.error().message;
        std::set<int64_t> ids;
        if (listed)
            for (const auto& lease : listed->leases())
                ids.insert(lease.id());
        return ids;
    }
    static void stopAndWait(ContentionLab& lab) {
        std::promise<void> stopped;
        lab.stop([&] { stopped.set_value(); });
        ASSERT_EQ(stopped.get_future().wait_for(20s), std::future_status::ready);
    }
};

TEST_F(ContentionLabIntegrationTest, WithoutChaosNobodyOverlapsAndEveryWriteLands) {
    auto options = optionsUnder("calm");
    options.workers = 10;
    options.hold = 20ms;
    options.think = 5ms;
    auto lab = ContentionLab::create(*client, options);
    lab->start();
    std::this_thread::sleep_for(3s);
    stopAndWait(*lab);
    const auto report = lab->report();
    EXPECT_GT(report.counters.acquisitions, 20);
    EXPECT_TRUE(report.overlaps.empty());
    EXPECT_EQ(report.counters.writesRejectedByFencing, 0);
    EXPECT_EQ(report.counters.writesWithoutLock, 0);
    EXPECT_GT(report.counters.writesApplied, 0);
    EXPECT_TRUE(lockscope::test::eventually([&] { return keysUnder(prefix() + "calm/") == 0; }))
        << "the lab left lock keys behind";
}

TEST_F(ContentionLabIntegrationTest, StopLeavesNoKeyAndNoLeaseEvenWithCrashesAndGrantsInFlight) {
    const auto before = leases();
    auto options = optionsUnder("teardown");
    options.workers = 20;
    options.hold = 20ms;
    options.think = 5ms;
    options.ttlSeconds = 10;
    options.crashProbability = 0.3; // crashed holders orphan their leases
    // At once (every session still being granted), then after a while of running.
    for (auto runFor : {0ms, 1500ms}) {
        auto own = makeClient();
        auto lab = ContentionLab::create(*own, options);
        lab->start();
        std::this_thread::sleep_for(runFor);
        stopAndWait(*lab);
        if (runFor > 0ms) {
            EXPECT_GT(lab->report().counters.crashes, 0);
        }
        lab.reset();
        own.reset(); // as lockscopectl and the window do once stop() said done
        EXPECT_EQ(keysUnder(prefix() + "teardown/"), 0u) << "after " << runFor.count() << " ms";
        std::set<int64_t> left;
        for (int64_t lease : leases())
            if (!before.contains(lease))
                left.insert(lease);
        EXPECT_TRUE(left.empty()) << left.size() << " leases of the lab left after "
                                  << runFor.count() << " ms";
    }
}

// A lab that runs for days crashes thousands of holds: it keeps the last of each worker only.
TEST_F(ContentionLabIntegrationTest, CrashedHoldsKeptAreAtMostOnePerWorker) {
    auto options = optionsUnder("crashes");
    options.workers = 2;
    options.hold = 10ms;
    options.think = 5ms;
    options.ttlSeconds = 2; // back 3 s after each crash
    options.crashProbability = 0.9;
    auto lab = ContentionLab::create(*client, options);
    lab->start();
    ASSERT_TRUE(lockscope::test::eventually(
        [&] { return lab->counters().crashes > 2 * options.workers; }, 60s))
        << lab->counters().crashes << " crashes";
    EXPECT_GE(lab->crashedHoldsKept(), 1u);
    EXPECT_LE(lab->crashedHoldsKept(), static_cast<std::size_t>(options.workers));
    stopAndWait(*lab);
    EXPECT_EQ(lab->crashedHoldsKept(), 0u); // revoked by the stop
    EXPECT_TRUE(lockscope::test::eventually([&] { return keysUnder(prefix() + "crashes/") == 0; }));
}

TEST_F(ContentionLabIntegrationTest, StepGivesEachWorkerOneAcquisition) {
    auto options = optionsUnder("step");
    options.workers = 5;
    options.hold = 10ms;
    auto lab = ContentionLab::create(*client, options);
    lab->step();
    ASSERT_TRUE(lockscope::test::eventually([&] { return !lab->running(); }, 20s));
    EXPECT_EQ(lab->counters().acquisitions, 5);
    stopAndWait(*lab);
    EXPECT_TRUE(lockscope::test::eventually([&] { return keysUnder(prefix() + "step/") == 0; }));
}

// The scenario: 50 workers with stall chaos for 60 s, fencing off and on side by side.
TEST_F(ContentionLabIntegrationTest, StallsCauseSplitBrainsThatOnlyFencingKeepsFromTheResource) {
    auto unfenced = optionsUnder("unfenced");
    auto fenced = optionsUnder("fenced");
    for (auto* o : {&unfenced, &fenced}) {
        o->workers = 25;
        o->hold = 50ms;
        o->think = 20ms;
        o->ttlSeconds = 2;
        o->stallProbability = 0.05;
    }
    unfenced.fencing = false;
    fenced.fencing = true;
    auto labOff = ContentionLab::create(*client, unfenced);
    auto labOn = ContentionLab::create(*client, fenced);
    labOff->start();
    labOn->start();
    // Both run until they show what the assertions below look for (stalls take a while to
    // cost a lease), at most a minute; a report every second leaves the labs their speed.
    auto shown = [&] {
        const auto off = labOff->report();
        const auto on = labOn->report();
        return off.counters.stalls > 0 && off.counters.writesWithoutLock > 0 &&
               std::any_of(off.ends.begin(), off.ends.end(),
                           [](const auto& end) { return end && end->how == "expired"; }) &&
               on.counters.stalls > 0 && on.counters.writesRejectedByFencing > 0;
    };
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!shown() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(1s);
    stopAndWait(*labOff);
    stopAndWait(*labOn);

    const auto off = labOff->report();
    EXPECT_GT(off.counters.stalls, 0);
    EXPECT_FALSE(off.overlaps.empty()) << "stalled holders should have overlapped their successors";
    // A stalled holder overlapped by several successors is one holder in several pairs.
    EXPECT_GT(off.outlivingHolds, 0u);
    EXPECT_LE(off.outlivingHolds, off.overlapsFound);
    EXPECT_GT(off.counters.writesWithoutLock, 0) << "without fencing, stale writes land";
    ASSERT_EQ(off.ends.size(), off.overlaps.size());
    int expiredByEtcd = 0;
    for (const auto& end : off.ends)
        expiredByEtcd += end && end->how == "expired";
    EXPECT_GT(expiredByEtcd, 0) << "etcd's history should show the stalled holds expiring";

    const auto on = labOn->report();
    for (const auto* r : {&off, &on})
        std::printf(
            "lab: %lld acquisitions (%.1f/s), %lld stalls, %zu overlaps of %zu holders (longest "
            "%lld ms), "
            "writes: %lld applied, %lld rejected by fencing, %lld landed without the lock\n",
            static_cast<long long>(r->counters.acquisitions), r->acquisitionsPerSecond,
            static_cast<long long>(r->counters.stalls), r->overlapsFound, r->outlivingHolds,
            r->overlaps.empty() ? 0LL : static_cast<long long>(r->overlaps[0].lasted.count()),
            static_cast<long long>(r->counters.writesApplied),
            static_cast<long long>(r->counters.writesRejectedByFencing),
            static_cast<long long>(r->counters.writesWithoutLock));
    EXPECT_GT(on.counters.stalls, 0);
    EXPECT_EQ(on.counters.writesWithoutLock, 0) << "fencing let a stale write land";
    EXPECT_GT(on.counters.writesRejectedByFencing, 0);

    EXPECT_TRUE(lockscope::test::eventually([&] {
        return keysUnder(prefix() + "unfenced/") == 0 && keysUnder(prefix() + "fenced/") == 0;
    })) << "the lab left lock keys behind";
}

} // namespace
