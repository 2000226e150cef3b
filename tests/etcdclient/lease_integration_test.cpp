#include "etcdclient/blocking.h"
#include "support/etcd_fixture.h"

#include <atomic>
#include <thread>

using namespace etcd;
using lockscope::test::EtcdTest;
using namespace std::chrono_literals;

namespace {

class LeaseIntegrationTest : public EtcdTest {
protected:
    int64_t grant(int64_t ttl) {
        pb::LeaseGrantRequest r;
        r.set_ttl(ttl);
        auto g = call(*client, &Client::leaseGrant, r);
        EXPECT_TRUE(g) << g.error().message;
        return g ? g->id() : 0;
    }
    Result<pb::LeaseTimeToLiveResponse> timeToLive(int64_t id) {
        pb::LeaseTimeToLiveRequest r;
        r.set_id(id);
        r.set_keys(true);
        return call(*client, &Client::leaseTimeToLive, r);
    }
};

TEST_F(LeaseIntegrationTest, GrantTimeToLiveLeasesAndRevoke) {
    const int64_t id = grant(30);
    ASSERT_NE(id, 0);
    pb::PutRequest put;
    put.set_key(prefix() + "leased");
    put.set_lease(id);
    ASSERT_TRUE(call(*client, &Client::put, put));

    auto ttl = timeToLive(id);
    ASSERT_TRUE(ttl);
    EXPECT_EQ(ttl->grantedttl(), 30);
    EXPECT_GT(ttl->ttl(), 25);
    ASSERT_EQ(ttl->keys_size(), 1);
    EXPECT_EQ(ttl->keys(0), prefix() + "leased");

    auto leases = call(*client, &Client::leaseLeases, pb::LeaseLeasesRequest{});
    ASSERT_TRUE(leases);
    bool listed = false;
    for (const auto& l : leases->leases())
        listed = listed || l.id() == id;
    EXPECT_TRUE(listed);

    pb::LeaseRevokeRequest revoke;
    revoke.set_id(id);
    ASSERT_TRUE(call(*client, &Client::leaseRevoke, revoke));
    auto gone = timeToLive(id);
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->ttl(), -1); // etcd's answer for a lease that no longer exists
    pb::RangeRequest get;
    get.set_key(prefix() + "leased");
    auto r = call(*client, &Client::range, get);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kvs_size(), 0) << "revoking a lease deletes its keys";

    auto again = call(*client, &Client::leaseRevoke, revoke);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, ErrorCode::LeaseNotFound) << again.error().message;
}

TEST_F(LeaseIntegrationTest, KeepAliveHoldsATwoSecondLeaseForTenSecondsThenItExpires) {
    const int64_t id = grant(2);
    ASSERT_NE(id, 0);
    std::atomic<int> answers{0};
    std::atomic<int64_t> lastTtl{0};
    auto handle = client->keepAlive(id, 2,
                                    {[&](const KeepAliveAnswer& a) {
                                         lastTtl = a.ttlSeconds;
                                         EXPECT_LE(a.sentAt, std::chrono::steady_clock::now());
                                         ++answers;
                                     },
                                     nullptr});
    std::this_thread::sleep_for(10s);
    auto alive = timeToLive(id);
    ASSERT_TRUE(alive);
    EXPECT_GT(alive->ttl(), 0) << "the lease expired although keepalives were sent";
    EXPECT_GE(answers.load(), 20) << "a 2 s lease is refreshed every ~0.33 s";
    EXPECT_EQ(lastTtl.load(), 2);

    handle.cancel();
    const auto stopped = std::chrono::steady_clock::now();
    while (true) {
        auto ttl = timeToLive(id);
        ASSERT_TRUE(ttl);
        if (ttl->ttl() == -1)
            break;
        ASSERT_LT(std::chrono::steady_clock::now() - stopped, 3s)
            << "the lease outlived TTL + 1 s after keepalives stopped";
        std::this_thread::sleep_for(50ms);
    }
}

TEST_F(LeaseIntegrationTest, KeepAliveOfARevokedLeaseEndsWithLeaseNotFound) {
    const int64_t id = grant(5);
    std::mutex m;
    std::condition_variable cv;
    std::optional<Error> ended;
    auto handle = client->keepAlive(id, 5, {nullptr, [&](const Error& e) {
                                                std::lock_guard lock(m);
                                                ended = e;
                                                cv.notify_all();
                                            }});
    pb::LeaseRevokeRequest revoke;
    revoke.set_id(id);
    ASSERT_TRUE(call(*client, &Client::leaseRevoke, revoke));
    std::unique_lock lock(m);
    ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return ended.has_value(); }));
    EXPECT_EQ(ended->code, ErrorCode::LeaseNotFound) << ended->message;
}

TEST_F(LeaseIntegrationTest, ManyLeasesShareOneKeepAliveStream) {
    std::vector<int64_t> ids;
    std::vector<KeepAliveHandle> handles;
    for (int i = 0; i < 30; ++i) {
        ids.push_back(grant(2));
        handles.push_back(client->keepAlive(ids.back(), 2, {}));
    }
    std::this_thread::sleep_for(4s);
    for (int64_t id : ids) {
        auto ttl = timeToLive(id);
        ASSERT_TRUE(ttl);
        EXPECT_GT(ttl->ttl(), 0) << std::hex << id;
    }
}

} // namespace
