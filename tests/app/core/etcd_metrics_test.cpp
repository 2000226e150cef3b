// The Prometheus text parser and what the Metrics page derives from etcd's /metrics: pure logic,
// on text written as etcd 3.4 writes it.
#include "app/core/etcd_member_metrics.h"
#include "app/core/prometheus_text.h"

#include <cmath>
#include <gtest/gtest.h>

namespace lockscope {
namespace {

std::vector<MetricSample> parsed(const std::string& text) {
    std::string error;
    auto samples = parsePrometheusText(text, error);
    EXPECT_TRUE(samples) << error;
    return samples ? *samples : std::vector<MetricSample>{};
}

std::string parseError(const std::string& text) {
    std::string error;
    EXPECT_FALSE(parsePrometheusText(text, error));
    return error;
}

TEST(PrometheusTextTest, ReadsSamplesLabelsAndSpecialValuesAndSkipsComments) {
    const auto samples =
        parsed("# HELP etcd_server_has_leader Whether a leader exists.\n"
               "# TYPE etcd_server_has_leader gauge\n"
               "etcd_server_has_leader 1\n"
               "\n"
               "etcd_server_id{server_id=\"7d07b6b9bfeb346a\"} 1\n"
               "h_bucket{le=\"+Inf\",path=\"a\\\\b \\\"q\\\"\\n\"} 6 1700000000000\n"
               "x:y NaN\r\n"
               "  z{} -Inf\n"
               "q 2.147483648e+09");
    ASSERT_EQ(samples.size(), 6u);
    EXPECT_EQ(samples[0].name, "etcd_server_has_leader");
    EXPECT_EQ(samples[0].value, 1);
    ASSERT_NE(samples[1].label("server_id"), nullptr);
    EXPECT_EQ(*samples[1].label("server_id"), "7d07b6b9bfeb346a");
    EXPECT_EQ(samples[1].label("le"), nullptr);
    EXPECT_EQ(*samples[2].label("le"), "+Inf");
    EXPECT_EQ(*samples[2].label("path"), "a\\b \"q\"\n");
    EXPECT_EQ(samples[2].value, 6);
    EXPECT_EQ(samples[3].name, "x:y");
    EXPECT_TRUE(std::isnan(samples[3].value));
    EXPECT_TRUE(std::isinf(samples[4].value) && samples[4].value < 0);
    EXPECT_EQ(samples[5].value, 2147483648.0);
}

TEST(PrometheusTextTest, SaysWhichLineIsWrongAndWhy) {
    EXPECT_EQ(parseError("a 1\nb{le=\"1\" 2\n"),
              "line 2: expected ',' or '}' after a label at column 10");
    EXPECT_EQ(parseError("a one\n"), "line 1: expected a value at column 3");
    EXPECT_EQ(parseError("a{x=\"unterminated} 1\n"),
              "line 1: unterminated label value at column 21");
    EXPECT_EQ(parseError("9a 1\n"), "line 1: expected a metric name at column 1");
    EXPECT_EQ(parseError("a 1 2 3\n"), "line 1: unexpected text after the value at column 7");
    EXPECT_EQ(parseError("a{x=\"\\t\"} 1\n"),
              "line 1: unknown escape in a label value at column 7");
}

const char* EtcdText = R"(# TYPE etcd_server_has_leader gauge
etcd_server_has_leader 1
etcd_server_is_leader 0
etcd_server_leader_changes_seen_total 2
etcd_debugging_server_lease_expired_total 5
etcd_debugging_lease_granted_total 40
etcd_debugging_lease_revoked_total 30
etcd_debugging_lease_renewed_total 100
etcd_debugging_mvcc_slow_watcher_total 1
etcd_debugging_mvcc_pending_events_total 7
etcd_debugging_mvcc_current_revision 1234
etcd_debugging_mvcc_compact_revision 1000
etcd_mvcc_db_total_size_in_bytes 20480
etcd_mvcc_db_total_size_in_use_in_bytes 16384
etcd_server_quota_backend_bytes 2.147483648e+09
etcd_server_proposals_pending 0
etcd_server_proposals_failed_total 3
etcd_disk_wal_fsync_duration_seconds_bucket{le="0.002"} 10
etcd_disk_wal_fsync_duration_seconds_bucket{le="0.001"} 5
etcd_disk_wal_fsync_duration_seconds_bucket{le="0.004"} 20
etcd_disk_wal_fsync_duration_seconds_bucket{le="+Inf"} 20
etcd_disk_wal_fsync_duration_seconds_sum 0.03
etcd_disk_wal_fsync_duration_seconds_count 20
)";

TEST(EtcdMemberMetricsTest, PicksWhatMattersForLocks) {
    const EtcdMemberMetrics m = etcdMemberMetrics(parsed(EtcdText));
    EXPECT_TRUE(m.hasLeader);
    EXPECT_FALSE(m.isLeader);
    EXPECT_EQ(m.leaderChanges, 2);
    EXPECT_EQ(m.leasesExpired, 5);
    EXPECT_EQ(m.leasesGranted, 40);
    EXPECT_EQ(m.leasesRevoked, 30);
    EXPECT_EQ(m.leasesRenewed, 100);
    EXPECT_EQ(m.slowWatchers, 1);
    EXPECT_EQ(m.pendingEvents, 7);
    EXPECT_EQ(m.currentRevision, 1234);
    EXPECT_EQ(m.compactRevision, 1000);
    EXPECT_EQ(m.dbSizeBytes, 20480);
    EXPECT_EQ(m.dbSizeInUseBytes, 16384);
    EXPECT_EQ(m.quotaBytes, 2147483648.0);
    EXPECT_EQ(m.proposalsFailed, 3);
    // Buckets sorted by bound, whatever order they came in.
    ASSERT_EQ(m.walFsyncSeconds.buckets.size(), 4u);
    EXPECT_EQ(m.walFsyncSeconds.buckets.front(), std::make_pair(0.001, 5.0));
    EXPECT_TRUE(std::isinf(m.walFsyncSeconds.buckets.back().first));
    // The backend commit histogram was not served.
    EXPECT_EQ(m.missing,
              std::vector<std::string>{"etcd_disk_backend_commit_duration_seconds_bucket"});
}

TEST(EtcdMemberMetricsTest, NamesEverythingAnotherServerDoesNotServe) {
    const EtcdMemberMetrics m = etcdMemberMetrics(parsed("go_goroutines 12\n"));
    EXPECT_EQ(m.missing.size(), 18u);
    EXPECT_FALSE(m.hasLeader);
}

MetricHistogram histogram(std::vector<std::pair<double, double>> buckets) {
    return MetricHistogram{std::move(buckets)};
}

TEST(EtcdMemberMetricsTest, QuantilesAreOfTheIntervalsObservationsOnly) {
    const auto before = histogram({{0.001, 100}, {0.01, 100}, {0.1, 100}, {INFINITY, 100}});
    // 10 new observations: 1 under 1 ms, 9 between 10 and 100 ms.
    const auto after = histogram({{0.001, 101}, {0.01, 101}, {0.1, 110}, {INFINITY, 110}});
    // rank 0.5 * 10 = 5: the 4th of 9 in (0.01, 0.1].
    EXPECT_NEAR(*quantileBetween(before, after, 0.5), 0.01 + 0.09 * 4.0 / 9.0, 1e-12);
    EXPECT_NEAR(*quantileBetween(before, after, 0.05), 0.001 * 0.5, 1e-12);
    EXPECT_FALSE(quantileBetween(after, after, 0.99)); // nothing observed
    // Beyond the last finite bound: that bound.
    const auto slow = histogram({{0.001, 101}, {0.01, 101}, {0.1, 101}, {INFINITY, 110}});
    EXPECT_EQ(*quantileBetween(before, slow, 0.99), 0.1);
    // A restarted member counts from zero.
    const auto restarted = histogram({{0.001, 2}, {0.01, 4}, {0.1, 4}, {INFINITY, 4}});
    EXPECT_NEAR(*quantileBetween(before, restarted, 0.5), 0.001, 1e-12);
}

TEST(EtcdMemberMetricsTest, RatesPerSecondAndCountersResetByARestart) {
    EtcdMemberMetrics before;
    before.leaderChanges = 2;
    before.leasesExpired = 5;
    before.leasesRenewed = 100;
    before.proposalsFailed = 3;
    EtcdMemberMetrics after = before;
    after.leaderChanges = 3;
    after.leasesExpired = 9;
    after.leasesRenewed = 120;
    after.proposalsFailed = 1; // reset: counts as 1 since the restart
    const EtcdMemberRates rates = ratesBetween(before, after, 2.0);
    EXPECT_EQ(rates.leaderChanges, 1);
    EXPECT_EQ(rates.leasesExpired, 4);
    EXPECT_EQ(rates.leasesExpiredPerSecond, 2);
    EXPECT_EQ(rates.leasesRenewedPerSecond, 10);
    EXPECT_EQ(rates.leasesGrantedPerSecond, 0);
    EXPECT_EQ(rates.proposalsFailedPerSecond, 0.5);
    EXPECT_FALSE(rates.walFsyncP99Seconds);
}

} // namespace
} // namespace lockscope
