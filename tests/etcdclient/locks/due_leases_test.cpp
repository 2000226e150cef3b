// dueLeases: which leases the monitor looks up next, at its bounded rate.
#include "etcdclient/locks/due_leases.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

using namespace etcd;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point t0 = Clock::time_point(1000s);
constexpr auto refresh = 2000ms;

LeaseTtl lookedUp(Clock::time_point at, int64_t ttl = 60) {
    return {ttl, 60, at, false};
}

std::vector<int64_t> sorted(std::vector<int64_t> leases) {
    std::sort(leases.begin(), leases.end());
    return leases;
}

} // namespace

TEST(DueLeasesTest, NeverLookedUpStaleOrRunningLowAreDueAndGoneOnesAreNot) {
    const std::unordered_map<int64_t, LockTable::LeaseUse> uses{
        {1, {1, 0}}, {2, {1, 0}}, {3, {1, 0}}, {4, {1, 0}}, {5, {1, 0}}};
    const std::map<int64_t, LeaseTtl> known{
        {2, lookedUp(t0 - 500ms)},     // fresh
        {3, lookedUp(t0 - 2500ms)},    // looked at too long ago
        {4, lookedUp(t0 - 500ms, 1)},  // counting down its last second
        {5, lookedUp(t0 - 9000ms, -1)} // gone
    };
    EXPECT_EQ(sorted(dueLeases(uses, known, t0, refresh, 10)), (std::vector<int64_t>{1, 3, 4}));
}

TEST(DueLeasesTest, HoldersFirstThenTheLongestUnseenWithinTheBudget) {
    const std::unordered_map<int64_t, LockTable::LeaseUse> uses{
        {1, {2, 0}}, {2, {1, 1}}, {3, {1, 0}}, {4, {3, 2}}};
    const std::map<int64_t, LeaseTtl> known{{1, lookedUp(t0 - 9s)},
                                            {2, lookedUp(t0 - 3s)},
                                            {3, lookedUp(t0 - 5s)},
                                            {4, lookedUp(t0 - 4s)}};
    EXPECT_EQ(dueLeases(uses, known, t0, refresh, 3), (std::vector<int64_t>{4, 2, 1}));
    EXPECT_TRUE(dueLeases(uses, known, t0, refresh, 0).empty());
}

// More leases than a tick may look up: each tick takes the ones looked at longest ago, so all
// are looked up in turn rather than the same few again and again.
TEST(DueLeasesTest, EveryLeaseGetsItsTurnAtABoundedRate) {
    std::unordered_map<int64_t, LockTable::LeaseUse> uses;
    for (int64_t lease = 1; lease <= 100; ++lease)
        uses[lease] = {1, 0};
    std::map<int64_t, LeaseTtl> known;
    std::set<int64_t> seen;
    auto now = t0;
    for (int tick = 0; tick < 10; ++tick, now += 500ms)
        for (int64_t lease : dueLeases(uses, known, now, refresh, 20)) {
            known[lease] = lookedUp(now);
            seen.insert(lease);
        }
    EXPECT_EQ(seen.size(), 100u);
}
