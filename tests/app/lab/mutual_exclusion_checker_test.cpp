#include "app/lab/mutual_exclusion_checker.h"

#include <gtest/gtest.h>

using namespace lockscope::lab;
using namespace std::chrono_literals;

namespace {
const Clock::time_point t0{};
BelievedHold hold(int worker, const std::string& lock, std::chrono::milliseconds from,
                  std::chrono::milliseconds to, int64_t token) {
    return {worker, lock, lock + "/" + std::to_string(worker), token, t0 + from, t0 + to};
}
} // namespace

TEST(MutualExclusionCheckerTest, BackToBackHoldsAreNoOverlap) {
    EXPECT_TRUE(findOverlaps({hold(1, "/l", 0ms, 10ms, 5), hold(2, "/l", 10ms, 20ms, 6)}).empty());
}

TEST(MutualExclusionCheckerTest, OverlapsAreFoundPerLockAndNamedLongestFirst) {
    auto overlaps = findOverlaps({hold(1, "/l", 0ms, 100ms, 5), hold(2, "/l", 40ms, 60ms, 6),
                                  hold(3, "/l", 90ms, 300ms, 7), hold(4, "/m", 50ms, 80ms, 8)});
    ASSERT_EQ(overlaps.size(), 2u);
    EXPECT_EQ(overlaps[0].first.worker, 1);
    EXPECT_EQ(overlaps[0].second.worker, 2);
    EXPECT_EQ(overlaps[0].lasted, 20ms);
    EXPECT_EQ(overlaps[1].second.worker, 3);
    EXPECT_EQ(overlaps[1].lasted, 10ms);
    EXPECT_EQ(overlaps[1].second.fencingToken, 7);
}

TEST(MutualExclusionCheckerTest, AWorkerNeverOverlapsItself) {
    EXPECT_TRUE(findOverlaps({hold(1, "/l", 0ms, 100ms, 5), hold(1, "/l", 50ms, 60ms, 6)}).empty());
}
