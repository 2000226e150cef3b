#include "etcdclient/locks/lock_stats.h"

#include <gtest/gtest.h>

using namespace etcd;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::system_clock;
const Clock::time_point t0 = Clock::time_point(std::chrono::seconds(1'700'000'000));

LockEvent event(LockEventKind kind, const std::string& lock, Clock::time_point at,
                std::optional<std::chrono::milliseconds> waited = {},
                std::optional<std::chrono::milliseconds> held = {}, bool recovered = false) {
    LockEvent e{kind, lock, lock + "/k", 1, 1, at, waited, held, recovered};
    return e;
}

TEST(LockStatsTest, RatesAndPercentilesOverTheWindow) {
    std::vector<LockEvent> h;
    h.push_back(event(LockEventKind::Acquired, "/old", t0 - 120s, 5ms)); // outside the window
    for (int i = 0; i < 10; ++i) {
        const auto at = t0 - 50s + std::chrono::seconds(i);
        h.push_back(event(LockEventKind::Acquired, "/l", at, std::chrono::milliseconds(i * 10)));
        h.push_back(event(LockEventKind::Released, "/l", at + 200ms, {},
                          std::chrono::milliseconds(100 + i)));
    }
    const LockStats s = computeLockStats(h, 60s, t0);
    EXPECT_EQ(s.acquisitions, 10u);
    EXPECT_DOUBLE_EQ(s.acquisitionsPerSecond, 10.0 / 60.0);
    EXPECT_EQ(s.wait.count, 10u);
    EXPECT_DOUBLE_EQ(s.wait.p50Ms, 40);
    EXPECT_DOUBLE_EQ(s.wait.maxMs, 90);
    EXPECT_EQ(s.hold.count, 10u);
    EXPECT_DOUBLE_EQ(s.hold.maxMs, 109);
    // Each release is followed by the next acquisition 800 ms later.
    EXPECT_EQ(s.handoff.count, 9u);
    EXPECT_DOUBLE_EQ(s.handoff.p50Ms, 800);
}

TEST(LockStatsTest, WaitersLeavingAreNotHoldsAndExpiriesAreCounted) {
    std::vector<LockEvent> h = {
        event(LockEventKind::Released, "/l", t0 - 3s), // a waiter gave up: no hold time
        event(LockEventKind::Acquired, "/l", t0 - 2s, 1ms),
        event(LockEventKind::Expired, "/l", t0 - 1s, {}, 1000ms),
        event(LockEventKind::Acquired, "/l", t0 - 1s, 2000ms),
    };
    const LockStats s = computeLockStats(h, 10s, t0);
    EXPECT_EQ(s.hold.count, 1u);
    EXPECT_EQ(s.expiries, 1u);
    EXPECT_EQ(s.handoff.count, 1u);
    EXPECT_DOUBLE_EQ(s.handoff.p50Ms, 0);
}

TEST(LockStatsTest, RecoveredEventsCountButCarryNoDurations) {
    std::vector<LockEvent> h = {
        event(LockEventKind::Acquired, "/l", t0 - 1s, 50ms, {}, true),
    };
    const LockStats s = computeLockStats(h, 10s, t0);
    EXPECT_EQ(s.acquisitions, 1u);
    EXPECT_EQ(s.wait.count, 0u);
}

// A wait or hold that began before LockScope saw the key is only a lower bound.
TEST(LockStatsTest, LowerBoundDurationsAreLeftOut) {
    std::vector<LockEvent> h = {
        event(LockEventKind::Released, "/l", t0 - 2s, {}, 300ms),
        event(LockEventKind::Acquired, "/l", t0 - 2s, 400ms),
        event(LockEventKind::Released, "/l", t0 - 1s, {}, 1000ms),
    };
    h[0].atLeast = h[1].atLeast = true;
    const LockStats s = computeLockStats(h, 10s, t0);
    EXPECT_EQ(s.acquisitions, 1u);
    EXPECT_EQ(s.wait.count, 0u);
    EXPECT_EQ(s.hold.count, 1u);
    EXPECT_DOUBLE_EQ(s.hold.maxMs, 1000);
}

} // namespace
