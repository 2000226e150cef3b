#include "etcdclient/latency_recorder.h"

#include <gtest/gtest.h>
#include <thread>

using etcd::LatencyRecorder;
using etcd::percentile;
using namespace std::chrono_literals;

TEST(LatencyRecorderTest, PercentilesUseNearestRank) {
    std::vector<double> v;
    for (int i = 1; i <= 100; ++i)
        v.push_back(i);
    EXPECT_EQ(percentile(v, 50), 50);
    EXPECT_EQ(percentile(v, 90), 90);
    EXPECT_EQ(percentile(v, 99), 99);
    EXPECT_EQ(percentile(v, 100), 100);
    EXPECT_EQ(percentile({}, 50), 0);
    EXPECT_EQ(percentile({7}, 99), 7);
}

TEST(LatencyRecorderTest, StatsAreKeptPerMethod) {
    LatencyRecorder recorder;
    for (int i = 1; i <= 10; ++i)
        recorder.record("KV.Range", std::chrono::microseconds(i * 1000), true);
    recorder.record("KV.Put", 5ms, true);
    const auto range = recorder.stats("KV.Range");
    EXPECT_EQ(range.count, 10u);
    EXPECT_DOUBLE_EQ(range.p50Ms, 5.0);
    EXPECT_DOUBLE_EQ(range.maxMs, 10.0);
    EXPECT_EQ(recorder.stats().size(), 2u);
    EXPECT_EQ(recorder.stats("Nope").count, 0u);
}

TEST(LatencyRecorderTest, OldSamplesLeaveTheWindow) {
    LatencyRecorder recorder(1s);
    recorder.record("KV.Range", 100ms, true);
    std::this_thread::sleep_for(1100ms);
    recorder.record("KV.Range", 1ms, true);
    const auto s = recorder.stats("KV.Range");
    EXPECT_EQ(s.count, 1u);
    EXPECT_DOUBLE_EQ(s.maxMs, 1.0);
}

TEST(LatencyRecorderTest, SampleCountPerMethodIsBounded) {
    LatencyRecorder recorder(60s, 100);
    for (int i = 0; i < 1000; ++i)
        recorder.record("KV.Range", 1ms, true);
    EXPECT_EQ(recorder.stats("KV.Range").count, 100u);
}

TEST(LatencyRecorderTest, ListenersSeeEverySampleUntilRemoved) {
    LatencyRecorder recorder;
    std::vector<std::string> seen;
    const int id = recorder.addListener([&](const etcd::LatencySample& s) {
        seen.push_back(s.method);
        EXPECT_EQ(s.roundTrip, 3ms);
    });
    recorder.record("KV.Txn", 3ms, true);
    recorder.removeListener(id);
    recorder.record("KV.Txn", 3ms, true);
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0], "KV.Txn");
}
