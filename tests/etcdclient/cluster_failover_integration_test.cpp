#include "etcdclient/blocking.h"
#include "support/etcd_fixture.h"

using namespace etcd;
using lockscope::test::EtcdClusterTest;
using lockscope::test::EtcdTlsClusterTest;

class ClusterFailoverIntegrationTest : public EtcdClusterTest {};
class TlsClusterFailoverIntegrationTest : public EtcdTlsClusterTest {};

namespace {

std::unique_ptr<Client> connect(const LocalCluster& cluster) {
    ClientOptions options = cluster.clientOptions();
    options.commandTimeout = std::chrono::seconds(10);
    auto created = Client::create(options);
    EXPECT_TRUE(created);
    return std::move(created).value();
}

int memberIndexOf(const LocalCluster& cluster, const std::string& endpoint) {
    for (int i = 0; i < cluster.size(); ++i)
        if (cluster.endpoint(i).ends_with(endpoint)) // "https://" + the client's "host:port"
            return i;
    return -1;
}

pb::PutRequest putOf(const std::string& key, const std::string& value) {
    pb::PutRequest p;
    p.set_key(key);
    p.set_value(value);
    return p;
}

// Stops the member `client` uses; reads and writes then go to another one.
void expectCallsContinueWhenTheMemberInUseStops(LocalCluster& cluster, Client& client) {
    ASSERT_TRUE(call(client, &Client::put, putOf("/failover/a", "1")));
    const int used = memberIndexOf(cluster, client.currentEndpoint());
    ASSERT_GE(used, 0);

    cluster.stopMember(used);

    pb::RangeRequest get;
    get.set_key("/failover/a");
    auto read = call(client, &Client::range, get);
    ASSERT_TRUE(read) << read.error().message;
    ASSERT_EQ(read->kvs_size(), 1);
    EXPECT_EQ(read->kvs(0).value(), "1");
    EXPECT_FALSE(cluster.endpoint(used).ends_with(client.currentEndpoint()));

    auto write = call(client, &Client::put, putOf("/failover/b", "2"));
    ASSERT_TRUE(write) << write.error().message;
}

TEST_F(ClusterFailoverIntegrationTest, StoppingTheMemberInUseDoesNotFailTheNextCalls) {
    auto client = connect(*cluster);
    expectCallsContinueWhenTheMemberInUseStops(*cluster, *client);
}

TEST_F(TlsClusterFailoverIntegrationTest, StoppingTheMemberInUseDoesNotFailTheNextCalls) {
    auto client = connect(*cluster);
    expectCallsContinueWhenTheMemberInUseStops(*cluster, *client);
}

TEST_F(ClusterFailoverIntegrationTest, AWriteFailsOverWhenItsMemberIsAlreadyDown) {
    auto client = connect(*cluster);
    const int used = memberIndexOf(*cluster, client->currentEndpoint());
    cluster->killMember(used);
    // The channel has not yet seen the member go: the write must not be lost or doubled.
    auto write = call(*client, &Client::put, putOf("/failover/c", "3"));
    ASSERT_TRUE(write) << write.error().message;
    pb::RangeRequest get;
    get.set_key("/failover/c");
    auto read = call(*client, &Client::range, get);
    ASSERT_TRUE(read);
    ASSERT_EQ(read->kvs_size(), 1);
    EXPECT_EQ(read->kvs(0).version(), 1);
}

TEST_F(ClusterFailoverIntegrationTest, WatchStreamBreakIsReportedAsUnavailableAndANewWatchWorks) {
    auto client = connect(*cluster);
    ASSERT_TRUE(call(*client, &Client::put, putOf("/failover/w", "0")));
    const int used = memberIndexOf(*cluster, client->currentEndpoint());

    std::promise<Error> ended;
    std::promise<void> created;
    bool createdOnce = false;
    pb::WatchCreateRequest w;
    w.set_key("/failover/w");
    auto handle = client->watch(w, {[&](const pb::WatchResponse& r) {
                                        if (r.created() && !createdOnce) {
                                            createdOnce = true;
                                            created.set_value();
                                        }
                                    },
                                    [&](const Error& e) { ended.set_value(e); }});
    ASSERT_EQ(created.get_future().wait_for(std::chrono::seconds(5)), std::future_status::ready);
    cluster->stopMember(used);
    auto endFuture = ended.get_future();
    ASSERT_EQ(endFuture.wait_for(std::chrono::seconds(20)), std::future_status::ready);
    const Error end = endFuture.get();
    EXPECT_EQ(end.code, ErrorCode::Unavailable) << end.message;

    std::promise<mvccpb::Event> event;
    std::promise<void> createdAgain;
    bool gotEvent = false, createdOnceMore = false;
    auto again = client->watch(w, {[&](const pb::WatchResponse& r) {
                                       if (r.created() && !createdOnceMore) {
                                           createdOnceMore = true;
                                           createdAgain.set_value();
                                       }
                                       if (!gotEvent && r.events_size() > 0) {
                                           gotEvent = true;
                                           event.set_value(r.events(0));
                                       }
                                   },
                                   nullptr});
    // A watch without a start revision sees only what comes after it is created.
    ASSERT_EQ(createdAgain.get_future().wait_for(std::chrono::seconds(10)),
              std::future_status::ready)
        << "the new watch was not created on a surviving member";
    auto put = call(*client, &Client::put, putOf("/failover/w", "1"));
    ASSERT_TRUE(put) << put.error().message;
    auto eventFuture = event.get_future();
    ASSERT_EQ(eventFuture.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_EQ(eventFuture.get().kv().value(), "1");
}

TEST_F(ClusterFailoverIntegrationTest, AWatchOnADeadMemberIsCreatedOnALiveOne) {
    auto client = connect(*cluster);
    const int used = memberIndexOf(*cluster, client->currentEndpoint());
    cluster->killMember(used); // the client has not noticed yet: its next stream opens there
    std::promise<void> created;
    bool once = false;
    pb::WatchCreateRequest w;
    w.set_key("/failover/fresh");
    auto handle = client->watch(w, {[&](const pb::WatchResponse& r) {
                                        if (r.created() && !once) {
                                            once = true;
                                            created.set_value();
                                        }
                                    },
                                    nullptr});
    EXPECT_EQ(created.get_future().wait_for(std::chrono::seconds(15)), std::future_status::ready);
}

TEST_F(ClusterFailoverIntegrationTest, KeepAliveSurvivesLosingItsMember) {
    auto client = connect(*cluster);
    pb::LeaseGrantRequest grant;
    grant.set_ttl(3);
    auto lease = call(*client, &Client::leaseGrant, grant);
    ASSERT_TRUE(lease);
    auto handle = client->keepAlive(lease->id(), 3, {});
    std::this_thread::sleep_for(std::chrono::seconds(1));
    cluster->stopMember(memberIndexOf(*cluster, client->currentEndpoint()));
    std::this_thread::sleep_for(std::chrono::seconds(6));
    pb::LeaseTimeToLiveRequest ttl;
    ttl.set_id(lease->id());
    auto left = call(*client, &Client::leaseTimeToLive, ttl);
    ASSERT_TRUE(left) << left.error().message;
    EXPECT_GT(left->ttl(), 0) << "keepalives stopped when their member went away";
}

} // namespace
