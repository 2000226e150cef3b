#include "app/core/lock_event_inbox.h"
#include "lock_test_data.h"

#include <gtest/gtest.h>

namespace lockscope {
namespace {

std::vector<etcd::LockEvent> eventsAt(std::initializer_list<int64_t> revisions) {
    std::vector<etcd::LockEvent> events;
    for (int64_t revision : revisions)
        events.push_back(test::enqueuedEvent(revision));
    return events;
}

std::vector<int64_t> revisionsOf(const std::vector<etcd::LockEvent>& events) {
    std::vector<int64_t> revisions;
    for (const auto& event : events)
        revisions.push_back(event.revision);
    return revisions;
}

TEST(LockEventInboxTest, OnlyTheFirstEventsSinceADrainAskForOne) {
    LockEventInbox inbox;
    EXPECT_TRUE(inbox.add(eventsAt({1})));
    EXPECT_FALSE(inbox.add(eventsAt({2, 3})));
    std::vector<etcd::LockEvent> taken;
    EXPECT_TRUE(inbox.take(taken));
    EXPECT_EQ(revisionsOf(taken), (std::vector<int64_t>{1, 2, 3}));
    EXPECT_TRUE(inbox.add(eventsAt({4})));
}

TEST(LockEventInboxTest, AChangeWithoutEventsWaitsForTheNextDrainOrTick) {
    LockEventInbox inbox;
    std::vector<etcd::LockEvent> taken;
    EXPECT_FALSE(inbox.take(taken));
    EXPECT_FALSE(inbox.add({}));
    EXPECT_TRUE(inbox.take(taken));
    EXPECT_TRUE(taken.empty());
    EXPECT_FALSE(inbox.take(taken));
}

TEST(LockEventInboxTest, TheListenerAfterABusyMonitorAsksForADrainOnce) {
    LockEventInbox inbox;
    EXPECT_TRUE(inbox.add(eventsAt({1})));
    std::vector<etcd::LockEvent> taken;
    ASSERT_TRUE(inbox.take(taken));
    EXPECT_TRUE(inbox.add(eventsAt({2}))); // the first since that drain took the inbox
    inbox.giveBack(std::move(taken));      // which found the monitor busy
    // Events are waiting, so these are not the first since a drain: still they ask, once.
    EXPECT_TRUE(inbox.add(eventsAt({3})));
    EXPECT_FALSE(inbox.add(eventsAt({4})));
    ASSERT_TRUE(inbox.take(taken));
    EXPECT_EQ(revisionsOf(taken), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(LockEventInboxTest, ALeaseAnswerAfterABusyMonitorAsksForADrainToo) {
    LockEventInbox inbox;
    inbox.giveBack(eventsAt({5}));
    EXPECT_TRUE(inbox.add({}));
    std::vector<etcd::LockEvent> taken;
    ASSERT_TRUE(inbox.take(taken));
    EXPECT_EQ(revisionsOf(taken), (std::vector<int64_t>{5}));
}

TEST(LockEventInboxTest, ADrainThatTookTheGivenBackEventsIsTheOneWanted) {
    LockEventInbox inbox;
    inbox.giveBack(eventsAt({5}));
    std::vector<etcd::LockEvent> taken;
    ASSERT_TRUE(inbox.take(taken)); // the timer's retry, say
    EXPECT_FALSE(inbox.add({}));    // a lease answer after it waits for the tick
}

} // namespace
} // namespace lockscope
