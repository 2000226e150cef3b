#include "etcdclient/blocking.h"
#include "etcdclient/locks/session.h"
#include "support/etcd_fixture.h"
#include "support/waiting.h"

using namespace etcd;
using namespace std::chrono_literals;
using etcd::createSession;
using lockscope::test::EtcdTest;

namespace {

class SessionIntegrationTest : public EtcdTest {
protected:
    int64_t serverTtl(int64_t lease) {
        pb::LeaseTimeToLiveRequest r;
        r.set_id(lease);
        auto ttl = call(*client, &Client::leaseTimeToLive, r);
        EXPECT_TRUE(ttl) << ttl.error().message;
        return ttl ? ttl->ttl() : -2;
    }
};

TEST_F(SessionIntegrationTest, KeepsItsLeaseAliveAndRevokesOnClose) {
    auto session = createSession(*client, 2);
    ASSERT_TRUE(session);
    std::this_thread::sleep_for(4s);
    EXPECT_GT(serverTtl(session->leaseId()), 0);
    EXPECT_FALSE(session->lost());
    EXPECT_GT(session->deadline(), std::chrono::steady_clock::now());

    std::promise<Error> closed;
    session->close([&](const Error& e) { closed.set_value(e); });
    EXPECT_TRUE(closed.get_future().get().ok());
    EXPECT_EQ(serverTtl(session->leaseId()), -1);
}

TEST_F(SessionIntegrationTest, DestroyingASessionRevokesItsLease) {
    auto session = createSession(*client, 30);
    ASSERT_TRUE(session);
    const int64_t lease = session->leaseId();
    session.reset();
    EXPECT_TRUE(lockscope::test::eventually([&] { return serverTtl(lease) == -1; }));
}

TEST_F(SessionIntegrationTest, PausedKeepalivesReportLossNoLaterThanTheServerExpiresTheLease) {
    auto session = createSession(*client, 2);
    ASSERT_TRUE(session);
    std::promise<std::chrono::steady_clock::time_point> lostAt;
    session->onLost([&](const Error&) { lostAt.set_value(std::chrono::steady_clock::now()); });
    session->setPaused(true);
    EXPECT_TRUE(session->paused());
    auto f = lostAt.get_future();
    ASSERT_EQ(f.wait_for(5s), std::future_status::ready) << "loss was never reported";
    // When we report the loss the server must not yet have let anyone else in for long: the
    // lease is either still alive or just expired (lease expiry is checked every 500 ms).
    const auto reported = f.get();
    EXPECT_TRUE(session->lost());
    while (serverTtl(session->leaseId()) != -1)
        std::this_thread::sleep_for(20ms);
    const auto expired = std::chrono::steady_clock::now();
    EXPECT_LE(reported, expired + 100ms) << "we reported the loss after the server expired it";
}

TEST_F(SessionIntegrationTest, ResumedKeepalivesBeforeTheDeadlineKeepTheSession) {
    auto session = createSession(*client, 3);
    ASSERT_TRUE(session);
    session->setPaused(true);
    std::this_thread::sleep_for(1s);
    session->setPaused(false);
    std::this_thread::sleep_for(4s);
    EXPECT_FALSE(session->lost());
    EXPECT_GT(serverTtl(session->leaseId()), 0);
}

TEST_F(SessionIntegrationTest, OrphanStopsKeepalivesWithoutRevoking) {
    auto session = createSession(*client, 2);
    ASSERT_TRUE(session);
    session->orphan();
    EXPECT_GT(serverTtl(session->leaseId()), 0) << "orphan must not revoke";
    // Gone once its 2 s run out unrenewed and the leader's lessor revokes it: well within 15 s
    // even on a loaded machine under a sanitizer (5 s was missed there once), while a session
    // still renewing it would keep it forever.
    EXPECT_TRUE(
        lockscope::test::eventually([&] { return serverTtl(session->leaseId()) == -1; }, 15s));
}

TEST_F(SessionIntegrationTest, RevokedLeaseIsReportedLost) {
    auto session = createSession(*client, 10);
    ASSERT_TRUE(session);
    std::promise<Error> lost;
    session->onLost([&](const Error& e) { lost.set_value(e); });
    pb::LeaseRevokeRequest revoke;
    revoke.set_id(session->leaseId());
    ASSERT_TRUE(call(*client, &Client::leaseRevoke, revoke));
    auto f = lost.get_future();
    ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
    EXPECT_EQ(f.get().code, ErrorCode::LeaseNotFound);
}

} // namespace
