// holdSpansOf: who held each lock when, from a recording's first checkpoint and its events, as
// the replay's timeline draws it.
#include "app/core/hold_spans.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace lockscope;
using namespace std::chrono_literals;
using Kind = etcd::LockEventKind;

namespace {

const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);

etcd::LockEvent event(Kind kind, const std::string& lock, const std::string& lease,
                      int64_t createRevision, std::chrono::seconds after) {
    etcd::LockEvent e{};
    e.kind = kind;
    e.lock = lock;
    e.key = lock + "/" + lease;
    e.lease = std::stoll(lease, nullptr, 16);
    e.createRevision = createRevision;
    e.revision = createRevision;
    e.observedAt = t0 + after;
    return e;
}

etcd::LockEvent holderLeft(Kind kind, const std::string& lock, const std::string& lease,
                           int64_t createRevision, std::chrono::seconds after) {
    auto e = event(kind, lock, lease, createRevision, after);
    e.held = 1ms; // a holder's departure has a hold time; a waiter's has none
    return e;
}

HistoryKey holderKey(const std::string& lock, const std::string& lease, int64_t createRevision) {
    HistoryKey key;
    key.lock = lock;
    key.key = lock + "/" + lease;
    key.lease = std::stoll(lease, nullptr, 16);
    key.createRevision = createRevision;
    key.holds = true;
    return key;
}

constexpr std::size_t many = 1000;

} // namespace

TEST(HoldSpansTest, AHoldBeginsWhenAcquiredAndEndsWhenItsHolderLeavesNotAWaiter) {
    const std::vector<HistoryEntry> entries{
        event(Kind::Enqueued, "/a", "1a", 2, 1s),      event(Kind::Acquired, "/a", "1a", 2, 1s),
        event(Kind::Enqueued, "/a", "2b", 3, 2s),      event(Kind::Enqueued, "/a", "3c", 4, 2s),
        event(Kind::Cancelled, "/a", "3c", 4, 3s), // a waiter leaving: 1a still holds
        holderLeft(Kind::Released, "/a", "1a", 2, 4s), event(Kind::Acquired, "/a", "2b", 3, 4s),
        HistoryGap{t0 + 5s, t0 + 6s, 9, "compacted"},  holderLeft(Kind::Expired, "/a", "2b", 3, 7s),
    };
    const HoldSpans holds = holdSpansOf(nullptr, entries, many, many);
    ASSERT_EQ(holds.spans.size(), 2u);
    EXPECT_EQ(holds.spans[0].key, "/a/1a");
    EXPECT_EQ(holds.spans[0].lease, 0x1a);
    EXPECT_EQ(holds.spans[0].fencingToken, 2);
    EXPECT_EQ(holds.spans[0].start, t0 + 1s);
    EXPECT_EQ(holds.spans[0].end, t0 + 4s);
    EXPECT_EQ(holds.spans[0].endedBy, Kind::Released);
    EXPECT_FALSE(holds.spans[0].startUnknown);
    // Unchanged across the gap: one hold, to its expiry.
    EXPECT_EQ(holds.spans[1].key, "/a/2b");
    EXPECT_EQ(holds.spans[1].start, t0 + 4s);
    EXPECT_EQ(holds.spans[1].end, t0 + 7s);
    EXPECT_EQ(holds.spans[1].endedBy, Kind::Expired);
    EXPECT_EQ(holds.locksLeftOut, 0u);
    EXPECT_EQ(holds.spansLeftOut, 0u);
    EXPECT_FALSE(holds.leftOutFrom);
}

TEST(HoldSpansTest, TheFirstCheckpointsHoldersHoldFromWhenTheyAcquiredOrWereFirstSeen) {
    HistoryCheckpoint start{10, t0 + 10s, "start", {}, 0};
    HistoryKey known = holderKey("/a", "1a", 2);
    known.acquiredAt = t0 + 4s;
    HistoryKey seenHolding = holderKey("/b", "2b", 3);
    seenHolding.acquiredAt = t0 + 5s;
    seenHolding.acquiredBeforeSeen = true;
    HistoryKey waiter = holderKey("/a", "3c", 4);
    waiter.holds = false;
    start.keys = {known, waiter, seenHolding};
    const std::vector<HistoryEntry> entries{holderLeft(Kind::ForceReleased, "/a", "1a", 2, 12s)};
    const HoldSpans holds = holdSpansOf(&start, entries, many, many);
    ASSERT_EQ(holds.spans.size(), 2u);
    EXPECT_EQ(holds.spans[0].key, "/a/1a");
    EXPECT_EQ(holds.spans[0].start, t0 + 4s);
    EXPECT_FALSE(holds.spans[0].startUnknown);
    EXPECT_EQ(holds.spans[0].end, t0 + 12s);
    EXPECT_EQ(holds.spans[0].endedBy, Kind::ForceReleased);
    EXPECT_EQ(holds.spans[1].key, "/b/2b");
    EXPECT_EQ(holds.spans[1].start, t0 + 5s);
    EXPECT_TRUE(holds.spans[1].startUnknown);
    EXPECT_FALSE(holds.spans[1].end); // still held where the recording ends
}

TEST(HoldSpansTest, AfterAGapTheRecoveredHolderBeginsUnknownAndTheSameHoldIsNotDrawnTwice) {
    auto recovered = event(Kind::Acquired, "/a", "2b", 3, 8s);
    recovered.recovered = true;
    auto again = event(Kind::Acquired, "/a", "2b", 3, 9s); // seen again: the same key and token
    const std::vector<HistoryEntry> entries{event(Kind::Acquired, "/a", "1a", 2, 1s),
                                            HistoryGap{t0 + 5s, t0 + 8s, 9, "restart"}, recovered,
                                            again};
    const HoldSpans holds = holdSpansOf(nullptr, entries, many, many);
    ASSERT_EQ(holds.spans.size(), 2u);
    // 1a's release fell in the gap, unseen: its hold ends where the next one is found.
    EXPECT_EQ(holds.spans[0].end, t0 + 8s);
    EXPECT_FALSE(holds.spans[0].endedBy);
    EXPECT_EQ(holds.spans[1].start, t0 + 8s);
    EXPECT_TRUE(holds.spans[1].startUnknown);
    EXPECT_FALSE(holds.spans[1].end);
}

TEST(HoldSpansTest, LocksAndSpansPastTheLimitsAreCountedNotKept) {
    std::vector<HistoryEntry> entries;
    for (int i = 0; i < 5; ++i) {
        const std::string lock = "/l" + std::to_string(i);
        entries.push_back(event(Kind::Acquired, lock, "1a", 10 + 2 * i, std::chrono::seconds(i)));
        entries.push_back(event(Kind::Acquired, lock, "2b", 11 + 2 * i, std::chrono::seconds(i)));
    }
    const HoldSpans byLocks = holdSpansOf(nullptr, entries, 2, many);
    EXPECT_EQ(byLocks.spans.size(), 4u);
    EXPECT_EQ(byLocks.locksLeftOut, 3u);
    EXPECT_EQ(byLocks.spans.back().lock, "/l1");
    const HoldSpans bySpans = holdSpansOf(nullptr, entries, many, 3);
    EXPECT_EQ(bySpans.spans.size(), 3u);
    EXPECT_EQ(bySpans.spansLeftOut, 7u);
    EXPECT_EQ(bySpans.leftOutFrom, t0 + 1s); // /l1's second hold, the first left out
    // The hold a later one would have ended is ended all the same.
    EXPECT_EQ(bySpans.spans[2].lock, "/l1");
    EXPECT_EQ(bySpans.spans[2].end, t0 + 1s);
    EXPECT_EQ(bySpans.spans[0].end, t0 + 0s);
    EXPECT_FALSE(bySpans.spans[1].end);
}

TEST(HoldSpansTest, OnlyAHoldersDepartureEndsAHold) {
    for (const Kind kind : {Kind::Released, Kind::Cancelled, Kind::Expired, Kind::ForceReleased}) {
        EXPECT_EQ(holdChangeOf(holderLeft(kind, "/a", "1a", 2, 1s)), HoldChange::Ends);
        EXPECT_EQ(holdChangeOf(event(kind, "/a", "1a", 2, 1s)), HoldChange::None);
    }
    EXPECT_EQ(holdChangeOf(event(Kind::Acquired, "/a", "1a", 2, 1s)), HoldChange::Begins);
    for (const Kind kind : {Kind::Enqueued, Kind::Proclaimed, Kind::Lost})
        EXPECT_EQ(holdChangeOf(holderLeft(kind, "/a", "1a", 2, 1s)), HoldChange::None);
}

// Random events on a few locks, seeded: each lock's spans follow one another without overlap,
// none ends before it begins, and a lock's last span is open exactly when its last change of
// hold was a beginning.
TEST(HoldSpansTest, RandomEventsGiveEachLockSpansThatFollowOneAnother) {
    std::mt19937 random(20261128);
    const Kind kinds[] = {Kind::Enqueued, Kind::Acquired, Kind::Released,      Kind::Cancelled,
                          Kind::Expired,  Kind::Lost,     Kind::ForceReleased, Kind::Proclaimed};
    for (int round = 0; round < 200; ++round) {
        std::vector<HistoryEntry> entries;
        std::map<std::string, bool> lastBegan; // lock -> its last change of hold began one
        auto at = std::chrono::seconds(0);
        for (int i = 0; i < 60; ++i) {
            at += std::chrono::seconds(random() % 2);
            const std::string lock = "/l" + std::to_string(random() % 3);
            const std::string lease = std::to_string(10 + random() % 4);
            auto e = event(kinds[random() % std::size(kinds)], lock, lease,
                           std::stoll(lease, nullptr, 16), at);
            if (random() % 2)
                e.held = 1ms;
            e.recovered = random() % 5 == 0;
            entries.push_back(e);
            if (const HoldChange change = holdChangeOf(e); change != HoldChange::None)
                lastBegan[lock] = change == HoldChange::Begins;
        }
        const HoldSpans holds = holdSpansOf(nullptr, entries, many, many);
        std::map<std::string, std::vector<const HoldSpan*>> byLock;
        for (const HoldSpan& span : holds.spans)
            byLock[span.lock].push_back(&span);
        for (const auto& [lock, spans] : byLock) {
            for (std::size_t i = 0; i < spans.size(); ++i) {
                if (spans[i]->end) {
                    EXPECT_GE(*spans[i]->end, spans[i]->start);
                }
                if (i + 1 < spans.size()) {
                    ASSERT_TRUE(spans[i]->end) << lock << " round " << round;
                    EXPECT_LE(*spans[i]->end, spans[i + 1]->start) << lock;
                }
            }
            EXPECT_EQ(!spans.back()->end, lastBegan[lock]) << lock << " round " << round;
        }
    }
}
