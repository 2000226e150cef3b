#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "support/etcd_fixture.h"

#include <atomic>
#include <future>

using namespace etcd;
using lockscope::test::EtcdTest;

namespace {

class KvIntegrationTest : public EtcdTest {
protected:
    Result<pb::PutResponse> put(const std::string& key, const std::string& value,
                                int64_t lease = 0) {
        pb::PutRequest r;
        r.set_key(key);
        r.set_value(value);
        r.set_lease(lease);
        return call(*client, &Client::put, r);
    }
    pb::RangeRequest prefixRange() const {
        pb::RangeRequest r;
        r.set_key(prefix());
        r.set_range_end(prefixRangeEnd(prefix()));
        return r;
    }
};

// etcdctl --user against a cluster without auth goes on without a token; so do we.
TEST_F(KvIntegrationTest, AUserOnAClusterWithoutAuthWorksAsEtcdctlDoes) {
    ClientOptions options;
    options.username = "alice";
    options.password = "anything";
    auto withUser = makeClient(options);
    ASSERT_TRUE(withUser);
    pb::PutRequest request;
    request.set_key(prefix() + "u");
    request.set_value("1");
    for (int i = 0; i < 2; ++i) { // the second call must not ask etcd to authenticate again
        auto written = call(*withUser, &Client::put, request);
        ASSERT_TRUE(written) << written.error().message;
    }
    EXPECT_EQ(withUser->latency().stats("Auth.Authenticate").count, 1u);
}

TEST_F(KvIntegrationTest, PutThenRangeReturnsTheValueAndRevisions) {
    auto put1 = put(prefix() + "a", "1");
    ASSERT_TRUE(put1) << put1.error().message;
    auto got = call(*client, &Client::range, prefixRange());
    ASSERT_TRUE(got) << got.error().message;
    ASSERT_EQ(got->kvs_size(), 1);
    EXPECT_EQ(got->kvs(0).key(), prefix() + "a");
    EXPECT_EQ(got->kvs(0).value(), "1");
    EXPECT_EQ(got->kvs(0).create_revision(), put1->header().revision());
    EXPECT_GE(got->header().revision(), put1->header().revision());
}

TEST_F(KvIntegrationTest, RangeHonoursSortLimitAndCreateRevisionBounds) {
    // Created in the order c, a, b: sorting by create revision must give that order back.
    int64_t revB = 0;
    for (const char* k : {"c", "a", "b"}) {
        auto p = put(prefix() + k, k);
        ASSERT_TRUE(p);
        revB = p->header().revision();
    }
    auto byCreate = prefixRange();
    byCreate.set_sort_target(pb::RangeRequest::CREATE);
    byCreate.set_sort_order(pb::RangeRequest::ASCEND);
    auto got = call(*client, &Client::range, byCreate);
    ASSERT_TRUE(got);
    ASSERT_EQ(got->kvs_size(), 3);
    EXPECT_EQ(got->kvs(0).key(), prefix() + "c");
    EXPECT_EQ(got->kvs(2).key(), prefix() + "b");

    // The nearest older key than b: what a lock waiter looks for.
    auto older = prefixRange();
    older.set_sort_target(pb::RangeRequest::CREATE);
    older.set_sort_order(pb::RangeRequest::DESCEND);
    older.set_max_create_revision(revB - 1);
    older.set_limit(1);
    auto prev = call(*client, &Client::range, older);
    ASSERT_TRUE(prev);
    ASSERT_EQ(prev->kvs_size(), 1);
    EXPECT_EQ(prev->kvs(0).key(), prefix() + "a");
    EXPECT_TRUE(prev->more());
    // etcd counts the whole key range, before the create-revision filter applies.
    EXPECT_EQ(prev->count(), 3);
}

TEST_F(KvIntegrationTest, RangeAtAnOldRevisionSeesTheOldValue) {
    auto first = put(prefix() + "k", "old");
    ASSERT_TRUE(first);
    ASSERT_TRUE(put(prefix() + "k", "new"));
    auto r = prefixRange();
    r.set_revision(first->header().revision());
    auto got = call(*client, &Client::range, r);
    ASSERT_TRUE(got);
    ASSERT_EQ(got->kvs_size(), 1);
    EXPECT_EQ(got->kvs(0).value(), "old");
}

TEST_F(KvIntegrationTest, DeleteRangeRemovesAPrefixAndReturnsPrevKvs) {
    ASSERT_TRUE(put(prefix() + "x", "1"));
    ASSERT_TRUE(put(prefix() + "y", "2"));
    pb::DeleteRangeRequest del;
    del.set_key(prefix());
    del.set_range_end(prefixRangeEnd(prefix()));
    del.set_prev_kv(true);
    auto deleted = call(*client, &Client::deleteRange, del);
    ASSERT_TRUE(deleted);
    EXPECT_EQ(deleted->deleted(), 2);
    EXPECT_EQ(deleted->prev_kvs_size(), 2);
    auto after = call(*client, &Client::range, prefixRange());
    ASSERT_TRUE(after);
    EXPECT_EQ(after->kvs_size(), 0);
}

TEST_F(KvIntegrationTest, TxnTakesTheSuccessBranchOnlyWhenTheCompareHolds) {
    const std::string key = prefix() + "lock";
    pb::TxnRequest txn;
    auto* cmp = txn.add_compare();
    cmp->set_key(key);
    cmp->set_target(pb::Compare::CREATE);
    cmp->set_result(pb::Compare::EQUAL);
    cmp->set_create_revision(0);
    auto* put = txn.add_success()->mutable_request_put();
    put->set_key(key);
    put->set_value("me");
    txn.add_failure()->mutable_request_range()->set_key(key);

    auto first = call(*client, &Client::txn, txn);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_TRUE(first->succeeded());
    ASSERT_EQ(first->responses_size(), 1);
    EXPECT_TRUE(first->responses(0).has_response_put());

    auto second = call(*client, &Client::txn, txn);
    ASSERT_TRUE(second);
    EXPECT_FALSE(second->succeeded());
    ASSERT_EQ(second->responses_size(), 1);
    ASSERT_EQ(second->responses(0).response_range().kvs_size(), 1);
    EXPECT_EQ(second->responses(0).response_range().kvs(0).create_revision(),
              first->header().revision());
}

TEST_F(KvIntegrationTest, RangeAllPagesAtOneRevision) {
    constexpr int keys = 250;
    for (int i = 0; i < keys; ++i)
        ASSERT_TRUE(put(prefix() + "k" + std::to_string(1000 + i), std::to_string(i)));
    auto r = prefixRange();
    r.set_limit(40);
    // A write during paging must not show up: every page reads at the first page's revision.
    std::promise<Result<pb::RangeResponse>> done;
    std::atomic<bool> wrote{false};
    client->rangeAll(r, [&](Result<pb::RangeResponse> res) { done.set_value(std::move(res)); });
    ASSERT_TRUE(put(prefix() + "k9999", "late"));
    wrote = true;
    auto all = done.get_future().get();
    ASSERT_TRUE(all) << all.error().message;
    ASSERT_TRUE(wrote);
    const int n = all->kvs_size();
    EXPECT_TRUE(n == keys || n == keys + 1) << n; // the late put may land before page one
    for (int i = 1; i < n; ++i)
        EXPECT_LT(all->kvs(i - 1).key(), all->kvs(i).key());
    EXPECT_EQ(all->count(), n);
    EXPECT_FALSE(all->more());
}

TEST_F(KvIntegrationTest, LargeRangeAboveGrpcDefaultLimitIsReceived) {
    // 6 MiB in one response: more than gRPC's 4 MiB default receive limit.
    const std::string value(512 * 1024, 'v');
    for (int i = 0; i < 12; ++i)
        ASSERT_TRUE(put(prefix() + "big" + std::to_string(i), value));
    auto got = call(*client, &Client::range, prefixRange());
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(got->kvs_size(), 12);
}

TEST_F(KvIntegrationTest, StatusAndMemberListDescribeTheServer) {
    auto status = call(*client, &Client::status, pb::StatusRequest{});
    ASSERT_TRUE(status) << status.error().message;
    EXPECT_EQ(status->version().rfind("3.", 0), 0u) << status->version();
    EXPECT_NE(status->leader(), 0u);
    EXPECT_GT(status->raftterm(), 0u);
    EXPECT_GT(status->dbsize(), 0);
    auto members = call(*client, &Client::memberList, pb::MemberListRequest{});
    ASSERT_TRUE(members);
    ASSERT_EQ(members->members_size(), 1);
    EXPECT_EQ(members->members(0).id(), status->header().member_id());
}

TEST_F(KvIntegrationTest, LatencyRecorderSeesEveryCall) {
    for (int i = 0; i < 5; ++i)
        ASSERT_TRUE(call(*client, &Client::range, prefixRange()));
    const auto stats = client->latency().stats("KV.Range");
    EXPECT_EQ(stats.count, 5u);
    EXPECT_GT(stats.maxMs, 0.0);
    EXPECT_LE(stats.p50Ms, stats.p99Ms);
}

TEST_F(KvIntegrationTest, UnreachableEndpointGivesAClearUnavailableError) {
    ClientOptions options;
    options.endpoints = {"127.0.0.1:1"};
    options.commandTimeout = std::chrono::milliseconds(2000);
    auto dead = makeClient(options);
    auto got = call(*dead, &Client::range, prefixRange());
    ASSERT_FALSE(got);
    EXPECT_EQ(got.error().code, ErrorCode::Unavailable) << got.error().message;
    EXPECT_NE(got.error().message.find("127.0.0.1:1"), std::string::npos) << got.error().message;
    EXPECT_NE(got.error().message.find("--endpoints"), std::string::npos);
}

TEST_F(KvIntegrationTest, MalformedEndpointIsRejectedAtCreation) {
    ClientOptions options;
    options.endpoints = {"ftp://nowhere"};
    auto created = Client::create(options);
    ASSERT_FALSE(created);
    EXPECT_EQ(created.error().code, ErrorCode::InvalidArgument);
}

TEST_F(KvIntegrationTest, V3LockServiceLocksAndUnlocksWithOurLease) {
    pb::LeaseGrantRequest grant;
    grant.set_ttl(10);
    auto lease = call(*client, &Client::leaseGrant, grant);
    ASSERT_TRUE(lease);
    v3lockpb::LockRequest lock;
    lock.set_name(prefix() + "v3lock");
    lock.set_lease(lease->id());
    auto locked = call(*client, &Client::lock, lock);
    ASSERT_TRUE(locked) << locked.error().message;
    EXPECT_EQ(locked->key().rfind(prefix() + "v3lock/", 0), 0u) << locked->key();
    v3lockpb::UnlockRequest unlock;
    unlock.set_key(locked->key());
    ASSERT_TRUE(call(*client, &Client::unlock, unlock));
    auto after = call(*client, &Client::range, prefixRange());
    ASSERT_TRUE(after);
    EXPECT_EQ(after->kvs_size(), 0);
}

} // namespace
