// lease_evidence: whether a lease's end was an expiry, from etcd's answers alone; how often a
// lease is looked up and when its countdown is stale.
#include "etcdclient/locks/lease_evidence.h"

#include <gtest/gtest.h>

using namespace etcd;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point t0 = Clock::time_point(1000s);
constexpr auto refresh = 2000ms;

LeaseTtl answered(Clock::time_point at, int64_t ttl, int64_t granted) {
    return {ttl, granted, at, false};
}

} // namespace

// A lease renewed on time is not an expiry when its countdown ran out: 150 sessions of TTL 2 s,
// each renewed every TTL/6 and revoked cleanly. etcd answers such a lease with 1 s left (it
// truncates 1.67 s), and with a lookup a second old the countdown said 0 at the revoke.
TEST(LeaseEvidenceTest, ARenewedLeaseWhoseCountdownRanOutWasNotAnExpiry) {
    const LeaseTtl healthy = answered(t0, 1, 2);
    EXPECT_FALSE(endedByExpiry(healthy, t0 + 1200ms, refresh));
    EXPECT_FALSE(endedByExpiry(healthy, t0 + 1900ms, refresh));
    // etcdctl lock's TTL 10 s, renewed every third: at least 6 s left when asked.
    EXPECT_FALSE(endedByExpiry(answered(t0, 6, 10), t0 + 7s, refresh));
}

// A countdown that ran out long after its lookup is no evidence: whatever the lease showed then,
// a whole TTL of keepalives may have come since.
TEST(LeaseEvidenceTest, AStaleCountdownIsNoEvidence) {
    EXPECT_TRUE(endedByExpiry(answered(t0, 0, 2), t0 + 1s, refresh));
    EXPECT_FALSE(endedByExpiry(answered(t0, 0, 2), t0 + 2100ms, refresh));
    EXPECT_TRUE(endedByExpiry(answered(t0, 2, 10), t0 + 3s, refresh));
    EXPECT_FALSE(endedByExpiry(answered(t0, 2, 10), t0 + 4100ms, refresh));
}

// Nobody renewed it for half its TTL, and its time ran out: an expiry. Before its time ran out,
// the deletion was a release, however late its keepalives were.
TEST(LeaseEvidenceTest, ALeaseUnrenewedForHalfItsTtlWhoseTimeRanOutExpired) {
    EXPECT_TRUE(endedByExpiry(answered(t0, 0, 2), t0 + 10ms, refresh));
    EXPECT_TRUE(endedByExpiry(answered(t0, 1, 4), t0 + 1100ms, refresh));
    EXPECT_FALSE(endedByExpiry(answered(t0, 1, 4), t0 + 900ms, refresh));
    EXPECT_FALSE(endedByExpiry(answered(t0, 2, 4), t0 + 2100ms, refresh)); // renewed 1-2 s ago
    EXPECT_TRUE(endedByExpiry(answered(t0, 3, 10), t0 + 3100ms, refresh));
    EXPECT_FALSE(endedByExpiry(answered(t0, 5, 10), t0 + 5100ms, refresh));
}

TEST(LeaseEvidenceTest, AGoneOrUnknownLeaseIsNoEvidence) {
    EXPECT_FALSE(endedByExpiry(answered(t0, -1, 2), t0 + 10ms, refresh));
    EXPECT_FALSE(endedByExpiry(LeaseTtl{}, t0, refresh));
}

TEST(LeaseEvidenceTest, ShortLeasesAreLookedUpTwiceATtlAndStaleAfterOne) {
    EXPECT_EQ(leaseLookupPeriod(2, refresh), 1000ms);
    EXPECT_EQ(leaseLookupPeriod(60, refresh), refresh);
    EXPECT_EQ(leaseLookupPeriod(0, refresh), refresh); // not known yet
    EXPECT_EQ(leaseStaleAfter(2, refresh), 2000ms);
    EXPECT_EQ(leaseStaleAfter(10, refresh), 4000ms);
    EXPECT_FALSE(leaseTtlStale(answered(t0, 1, 2), t0 + 2s, refresh));
    EXPECT_TRUE(leaseTtlStale(answered(t0, 1, 2), t0 + 2001ms, refresh));
    EXPECT_FALSE(leaseTtlStale(answered(t0, -1, 2), t0 + 60s, refresh)); // gone, not stale
}

// 300 sessions of TTL 10 s (etcdctl lock's): the fixed 40 a second looked each up every 7.5 s.
TEST(LeaseEvidenceTest, TheLookupRateScalesWithTheLeasesShownWithinItsBounds) {
    std::unordered_map<int64_t, LockTable::LeaseUse> uses;
    std::map<int64_t, LeaseTtl> known;
    for (int64_t lease = 1; lease <= 300; ++lease) {
        uses[lease] = {1, 0};
        known[lease] = answered(t0, 8, 10);
    }
    EXPECT_EQ(leaseLookupsPerSecond(uses, known, refresh, 40, 1000), 300); // twice a period
    EXPECT_EQ(leaseLookupsPerSecond(uses, known, refresh, 40, 200), 200);
    EXPECT_EQ(leaseLookupsPerSecond({{1, {1, 0}}}, known, refresh, 40, 200), 40);
    for (auto& [lease, ttl] : known)
        ttl.grantedTtlSeconds = 2;
    EXPECT_EQ(leaseLookupsPerSecond(uses, known, refresh, 40, 1000), 600);
}
