#include "app/core/recording_inbox.h"
#include "lock_test_data.h"

#include <gtest/gtest.h>
#include <thread>

namespace lockscope {
namespace {

RecordingBatch batchAt(int64_t revision) {
    RecordingBatch batch;
    batch.events.push_back(test::enqueuedEvent(revision));
    return batch;
}

std::vector<int64_t> revisionsOf(const std::vector<RecordingBatch>& batches) {
    std::vector<int64_t> revisions;
    for (const auto& batch : batches)
        for (const auto& event : batch.events)
            revisions.push_back(event.revision);
    return revisions;
}

TEST(RecordingInboxTest, OnlyTheFirstBatchSinceATakeAsksForAWakeUp) {
    RecordingInbox inbox;
    EXPECT_TRUE(inbox.take().empty());
    EXPECT_TRUE(inbox.add(batchAt(1)));
    EXPECT_FALSE(inbox.add(batchAt(2)));
    EXPECT_FALSE(inbox.add(batchAt(3)));
    EXPECT_EQ(revisionsOf(inbox.take()), (std::vector<int64_t>{1, 2, 3}));
    EXPECT_TRUE(inbox.take().empty());
    EXPECT_TRUE(inbox.add(batchAt(4)));
}

TEST(RecordingInboxTest, BatchesKeepWhatTheyHoldAndTheirOrder) {
    RecordingInbox inbox;
    RecordingBatch gapOnly;
    gapOnly.gap = HistoryGap{};
    gapOnly.gap->revision = 9;
    inbox.add(std::move(gapOnly));
    inbox.add(batchAt(10));
    const auto taken = inbox.take();
    ASSERT_EQ(taken.size(), 2u);
    ASSERT_TRUE(taken[0].gap);
    EXPECT_EQ(taken[0].gap->revision, 9);
    EXPECT_TRUE(taken[0].events.empty());
    EXPECT_FALSE(taken[1].gap);
    EXPECT_EQ(revisionsOf({taken[1]}), (std::vector<int64_t>{10}));
}

// One thread adds as a feed does while another takes as commits do: every batch arrives once,
// in order, and each wake-up asked for follows a take that found the inbox empty or began it.
TEST(RecordingInboxTest, AFeedAndACommitOnTwoThreadsLoseNothing) {
    RecordingInbox inbox;
    constexpr int batches = 20000;
    int wakeUps = 0;
    std::thread feed([&] {
        for (int i = 1; i <= batches; ++i)
            wakeUps += inbox.add(batchAt(i)) ? 1 : 0;
    });
    std::vector<int64_t> seen;
    int nonEmptyTakes = 0;
    while (seen.size() < static_cast<std::size_t>(batches)) {
        const auto revisions = revisionsOf(inbox.take());
        nonEmptyTakes += revisions.empty() ? 0 : 1;
        seen.insert(seen.end(), revisions.begin(), revisions.end());
    }
    feed.join();
    ASSERT_EQ(seen.size(), static_cast<std::size_t>(batches));
    for (int i = 0; i < batches; ++i)
        ASSERT_EQ(seen[static_cast<std::size_t>(i)], i + 1);
    // A take that found batches took what a wake-up was asked for.
    EXPECT_EQ(wakeUps, nonEmptyTakes);
}

} // namespace
} // namespace lockscope
