#include "app/lab/mutual_exclusion_checker.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace lockscope::lab;
using namespace std::chrono_literals;

namespace {
const Clock::time_point t0{};
BelievedHold hold(int worker, const std::string& lock, std::chrono::milliseconds from,
                  std::chrono::milliseconds to, int64_t token) {
    return {worker, lock, lock + "/" + std::to_string(worker), token, t0 + from, t0 + to};
}

// Holds as a lab reports them: each begins at its start, and ends (in the order of their ends).
std::vector<Overlap> overlapsOf(std::vector<BelievedHold> holds,
                                MutualExclusionChecker checker = MutualExclusionChecker()) {
    std::vector<std::pair<Clock::time_point, std::size_t>> steps; // begins before ends at a tie
    for (std::size_t i = 0; i < holds.size(); ++i) {
        steps.emplace_back(holds[i].from, 2 * i);
        steps.emplace_back(holds[i].to, 2 * i + 1);
    }
    std::sort(steps.begin(), steps.end());
    for (const auto& [at, step] : steps)
        step % 2 ? checker.ended(holds[step / 2])
                 : checker.began(holds[step / 2].worker, holds[step / 2].from);
    EXPECT_EQ(checker.found(), checker.longest().size());
    return checker.longest();
}
} // namespace

TEST(MutualExclusionCheckerTest, BackToBackHoldsAreNoOverlap) {
    EXPECT_TRUE(overlapsOf({hold(1, "/l", 0ms, 10ms, 5), hold(2, "/l", 10ms, 20ms, 6)}).empty());
}

TEST(MutualExclusionCheckerTest, OverlapsAreFoundPerLockAndNamedLongestFirst) {
    auto overlaps = overlapsOf({hold(1, "/l", 0ms, 100ms, 5), hold(2, "/l", 40ms, 60ms, 6),
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
    EXPECT_TRUE(overlapsOf({hold(1, "/l", 0ms, 100ms, 5), hold(1, "/l", 50ms, 60ms, 6)}).empty());
}

// A stalled holder believes it holds for seconds while others take the lock in turn: each of
// their holds overlaps it, found when the stalled one ends, however long ago they ended.
TEST(MutualExclusionCheckerTest, AHoldInProgressKeepsTheHoldsItMayOverlap) {
    MutualExclusionChecker checker;
    checker.began(1, t0);
    for (int i = 0; i < 50; ++i) {
        const auto from = std::chrono::milliseconds(10 + 20 * i);
        checker.began(2 + i % 3, t0 + from);
        checker.ended(hold(2 + i % 3, "/l", from, from + 10ms, 10 + i));
    }
    EXPECT_EQ(checker.holdsKept(), 50u);
    checker.ended(hold(1, "/l", 0ms, 5000ms, 5));
    EXPECT_EQ(checker.found(), 50u);
    EXPECT_EQ(checker.outlivingHolds(), 1u); // one stalled holder, fifty successors
}

// Two stalled holders, each overlapped by the holders that came after it: two outliving holds.
TEST(MutualExclusionCheckerTest, EachStalledHolderIsCountedOnceWhateverItsSuccessors) {
    const auto overlaps =
        overlapsOf({hold(1, "/l", 0ms, 1000ms, 1), hold(2, "/l", 100ms, 150ms, 2),
                    hold(3, "/l", 200ms, 1500ms, 3), hold(4, "/l", 300ms, 350ms, 4),
                    hold(5, "/l", 1100ms, 1200ms, 5)});
    // 1 with 2, 3 and 4; 3 with 4 and 5.
    EXPECT_EQ(overlaps.size(), 5u);
    MutualExclusionChecker checker;
    for (const auto& h : {hold(1, "/l", 0ms, 1000ms, 1), hold(3, "/l", 200ms, 1500ms, 3)})
        checker.began(h.worker, h.from);
    for (const auto& h : {hold(2, "/l", 100ms, 150ms, 2), hold(4, "/l", 300ms, 350ms, 4),
                          hold(1, "/l", 0ms, 1000ms, 1), hold(5, "/l", 1100ms, 1200ms, 5),
                          hold(3, "/l", 200ms, 1500ms, 3)})
        checker.ended(h);
    EXPECT_EQ(checker.found(), 5u);
    EXPECT_EQ(checker.outlivingHolds(), 2u);
    EXPECT_EQ(checker.longest().front().first.worker, 1);
    EXPECT_EQ(checker.holdsKept(), 0u); // nothing in progress: nothing can overlap them now
}

// A lab that runs for days keeps the holds of its last moments, and the longest split brains.
TEST(MutualExclusionCheckerTest, MemoryStaysBoundedOverAnyNumberOfHolds) {
    MutualExclusionChecker checker(3);
    for (int i = 0; i < 100000; ++i) {
        const auto from = std::chrono::milliseconds(10 * i);
        checker.began(i % 7, t0 + from);
        checker.began((i + 1) % 7, t0 + from + 2ms); // overlaps the first by 1 + i % 5 ms
        checker.ended(hold(i % 7, "/l", from, from + 3ms + std::chrono::milliseconds(i % 5), i));
        checker.ended(hold((i + 1) % 7, "/l", from + 2ms, from + 8ms, i));
        EXPECT_LE(checker.holdsKept(), 2u);
    }
    EXPECT_EQ(checker.found(), 100000u);
    ASSERT_EQ(checker.longest().size(), 3u);
    EXPECT_EQ(checker.longest().front().lasted, 5ms);
    EXPECT_EQ(checker.longest().back().lasted, 5ms);
}
