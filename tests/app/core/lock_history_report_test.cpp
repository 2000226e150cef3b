// LockHistoryReport: scripted recorded entries in, per lock figures out, no server.
#include "app/core/lock_history_report.h"

#include <gtest/gtest.h>

using namespace lockscope;
using namespace std::chrono_literals;
using Kind = etcd::LockEventKind;

namespace {

const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);

etcd::LockEvent event(Kind kind, const std::string& key, int64_t revision,
                      const std::string& lock = "/locks/job") {
    etcd::LockEvent e{};
    e.kind = kind;
    e.lock = lock;
    e.key = lock + "/" + key;
    e.revision = revision;
    e.observedAt = t0 + std::chrono::seconds(revision);
    return e;
}

etcd::LockEvent acquired(const std::string& key, int64_t revision,
                         std::chrono::milliseconds waited) {
    etcd::LockEvent e = event(Kind::Acquired, key, revision);
    e.waited = waited;
    return e;
}

etcd::LockEvent left(Kind kind, const std::string& key, int64_t revision,
                     std::optional<std::chrono::milliseconds> held) {
    etcd::LockEvent e = event(kind, key, revision);
    e.held = held;
    return e;
}

} // namespace

TEST(LockHistoryReportTest, SpreadIsNearestRankOverTheSortedTimes) {
    std::vector<std::chrono::milliseconds> times;
    for (int i = 100; i >= 1; --i)
        times.emplace_back(i * 10);
    const auto spread = LockHistoryReport::spreadOf(times);
    EXPECT_EQ(spread.count, 100u);
    EXPECT_EQ(spread.p50, 500ms);
    EXPECT_EQ(spread.p99, 990ms);
    EXPECT_EQ(spread.max, 1000ms);
    const auto one = LockHistoryReport::spreadOf({7ms});
    EXPECT_EQ(one.p50, 7ms);
    EXPECT_EQ(one.p99, 7ms);
    const auto three = LockHistoryReport::spreadOf({30ms, 10ms, 20ms});
    EXPECT_EQ(three.p50, 20ms); // rank ceil(1.5) = 2
    EXPECT_EQ(three.p99, 30ms);
    EXPECT_EQ(LockHistoryReport::spreadOf({}).count, 0u);
}

TEST(LockHistoryReportTest, HoldsWaitsExpiriesAndWhoEachWaiterWaitedBehind) {
    const std::vector<HistoryEntry> entries = {
        event(Kind::Enqueued, "a", 1),
        acquired("a", 1, 0ms),
        event(Kind::Enqueued, "b", 2),
        event(Kind::Enqueued, "c", 3),
        left(Kind::Released, "a", 4, 3000ms),
        acquired("b", 4, 2000ms),
        left(Kind::Expired, "b", 5, 1000ms),
        acquired("c", 5, 2000ms + 500ms),
        left(Kind::ForceReleased, "c", 6, 800ms),
        event(Kind::Enqueued, "x", 7, "/locks/other"),
        event(Kind::Cancelled, "x", 8, "/locks/other"),
    };
    const LockHistoryReport report(entries);
    ASSERT_EQ(report.locks().size(), 2u);
    const auto& job = report.locks()[0];
    EXPECT_EQ(job.name, "/locks/job");
    EXPECT_EQ(job.acquisitions, 3u);
    EXPECT_EQ(job.expiries, 1u);
    EXPECT_EQ(job.forceReleases, 1u);
    EXPECT_EQ(job.losses, 0u);
    EXPECT_EQ(job.holds.count, 3u);
    EXPECT_EQ(job.holds.p50, 1000ms);
    EXPECT_EQ(job.holds.max, 3000ms);
    EXPECT_EQ(job.waits.count, 3u);
    EXPECT_EQ(job.waits.p50, 2000ms);
    EXPECT_EQ(job.waits.max, 2500ms);
    ASSERT_EQ(job.longestWaits.size(), 3u);
    EXPECT_EQ(job.longestWaits[0].key, "/locks/job/c");
    EXPECT_EQ(job.longestWaits[0].waited, 2500ms);
    EXPECT_EQ(job.longestWaits[0].revision, 5);
    // c queued behind a, and b held before c did.
    EXPECT_EQ(job.longestWaits[0].waitedOn,
              (std::vector<std::string>{"/locks/job/a", "/locks/job/b"}));
    EXPECT_EQ(job.longestWaits[1].key, "/locks/job/b");
    EXPECT_EQ(job.longestWaits[1].waitedOn, (std::vector<std::string>{"/locks/job/a"}));
    EXPECT_TRUE(job.longestWaits[2].waitedOn.empty()); // a waited behind nobody
    const auto& other = report.locks()[1];
    EXPECT_EQ(other.acquisitions, 0u);
    EXPECT_EQ(other.waits.count, 0u);
    EXPECT_TRUE(other.longestWaits.empty());
}

TEST(LockHistoryReportTest, BoundsAreCountedApartAndAGapForgetsWhoHeld) {
    etcd::LockEvent before = acquired("a", 2, 60000ms);
    before.atLeast = true; // held before the recording began
    etcd::LockEvent recovered = left(Kind::Released, "a", 9, 5000ms);
    recovered.recovered = true;
    const std::vector<HistoryEntry> entries = {
        before,    event(Kind::Enqueued, "b", 3), HistoryGap{t0 + 4s, t0 + 9s, 9, "compacted"},
        recovered, acquired("b", 9, 6000ms),      left(Kind::Released, "b", 10, 1000ms),
    };
    const LockHistoryReport report(entries);
    EXPECT_EQ(report.gaps(), 1u);
    ASSERT_EQ(report.locks().size(), 1u);
    const auto& job = report.locks()[0];
    EXPECT_EQ(job.bounds, 2u);
    EXPECT_EQ(job.waits.count, 1u);
    EXPECT_EQ(job.waits.max, 6000ms);
    EXPECT_EQ(job.holds.count, 1u);
    EXPECT_EQ(job.holds.max, 1000ms);
    // b's wait crossed the gap: whom it waited behind before it is not claimed.
    ASSERT_EQ(job.longestWaits.size(), 2u);
    EXPECT_EQ(job.longestWaits[0].key, "/locks/job/a");
    EXPECT_TRUE(job.longestWaits[0].atLeast);
    EXPECT_EQ(job.longestWaits[1].key, "/locks/job/b");
    EXPECT_TRUE(job.longestWaits[1].waitedOn.empty());
}

// Built entry by entry, as a day's recording is read: the same report as from the entries at
// once, keeping the longest waits only (the earlier of equal ones first) among many.
TEST(LockHistoryReportTest, BuiltEntryByEntryKeepsTheLongestWaitsOnly) {
    std::vector<HistoryEntry> entries;
    int64_t revision = 1;
    // Waits of 1 to 9 s, twice each, in no order; the second 9 s wait comes later.
    for (const int seconds : {3, 9, 1, 7, 5, 2, 8, 4, 6, 9, 6, 3, 1, 7, 8, 2, 4, 5}) {
        const std::string key = std::to_string(revision);
        entries.push_back(event(Kind::Enqueued, key, revision));
        entries.push_back(acquired(key, revision, std::chrono::seconds(seconds)));
        entries.push_back(left(Kind::Released, key, ++revision, 10ms));
    }
    LockHistoryReport::Builder builder;
    for (const auto& entry : entries)
        builder.add(entry);
    const LockHistoryReport built = builder.finish();
    const LockHistoryReport whole(entries);
    ASSERT_EQ(built.locks().size(), 1u);
    const auto& job = built.locks()[0];
    EXPECT_EQ(job.acquisitions, 18u);
    EXPECT_EQ(job.waits.count, 18u);
    EXPECT_EQ(job.waits.p50, 5s);
    ASSERT_EQ(job.longestWaits.size(), LockHistoryReport::longestWaitsKept);
    EXPECT_EQ(job.longestWaits[0].waited, 9s);
    EXPECT_EQ(job.longestWaits[0].revision, 2);  // the first 9 s wait
    EXPECT_EQ(job.longestWaits[1].revision, 10); // the second
    EXPECT_EQ(job.longestWaits[2].waited, 8s);
    EXPECT_EQ(job.longestWaits[2].revision, 7);
    ASSERT_EQ(whole.locks().size(), 1u);
    EXPECT_EQ(whole.locks()[0].longestWaits[2].revision, 7);
    // Finished, the builder starts afresh.
    EXPECT_TRUE(builder.finish().locks().empty());
}
