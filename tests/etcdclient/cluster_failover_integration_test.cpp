#include "etcdclient/blocking.h"
#include "support/etcd_fixture.h"
#include "support/stopped_member.h"
#include "support/waiting.h"
#include "support/watch_log.h"

#include <set>

using namespace etcd;
using lockscope::test::endpointsFrom;
using lockscope::test::EtcdClusterTest;
using lockscope::test::EtcdTlsClusterTest;
using lockscope::test::eventually;
using lockscope::test::leaderOf;
using lockscope::test::lockAsync;
using lockscope::test::StoppedMember;
using lockscope::test::WatchLog;

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

TEST_F(ClusterFailoverIntegrationTest, StatusOfAsksThatMemberAloneAndNeverFailsOver) {
    auto client = connect(*cluster);
    const auto statusOf = [&](int member) {
        return waitFor<Result<pb::StatusResponse>>([&](auto done) {
            client->statusOf(static_cast<std::size_t>(member), {}, std::move(done));
        });
    };
    std::set<uint64_t> members;
    for (int i = 0; i < cluster->size(); ++i) {
        auto status = statusOf(i);
        ASSERT_TRUE(status) << status.error().message;
        members.insert(status->header().member_id());
    }
    EXPECT_EQ(members.size(), static_cast<std::size_t>(cluster->size()))
        << "two endpoints answered with the same member";

    cluster->stopMember(1);
    auto stopped = statusOf(1);
    ASSERT_FALSE(stopped) << "a stopped member's status came from another member";
    EXPECT_TRUE(isConnectionFailure(stopped.error().code) ||
                stopped.error().code == ErrorCode::DeadlineExceeded)
        << stopped.error().message;
    EXPECT_NE(stopped.error().message.find(cluster->endpoint(1)), std::string::npos)
        << stopped.error().message;
    auto other = statusOf(2);
    EXPECT_TRUE(other) << other.error().message;
    EXPECT_FALSE(statusOf(cluster->size())) << "a member index past the endpoints";
}

TEST_F(ClusterFailoverIntegrationTest, AWatchWhoseMemberStopsResumesOnAnotherWithoutALostEvent) {
    auto client = connect(*cluster);
    WatchLog watched;
    pb::WatchCreateRequest w;
    w.set_key("/failover/w");
    auto handle = client->watch(w, watched.callbacks());
    ASSERT_TRUE(watched.waitFor([](WatchLog& w) { return w.created; }));
    ASSERT_TRUE(call(*client, &Client::put, putOf("/failover/w", "0")));
    ASSERT_TRUE(watched.waitFor([](WatchLog& w) { return w.events.size() >= 1; }));
    cluster->stopMember(memberIndexOf(*cluster, client->currentEndpoint()));
    for (const char* value : {"1", "2"})
        ASSERT_TRUE(call(*client, &Client::put, putOf("/failover/w", value)));
    ASSERT_TRUE(watched.waitFor([](WatchLog& w) { return w.events.size() >= 3; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); // room for a repeat to show
    EXPECT_EQ(watched.values(), (std::vector<std::string>{"0", "1", "2"}));
    std::lock_guard lock(watched.mutex);
    EXPECT_FALSE(watched.end) << watched.end->message;
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

// A Session's probe near its lease deadline: an answer after the deadline is useless, and a
// member silent until then may only be waiting for a new leader, so the call neither outlives
// its timeout nor moves the client's calls off that member.
TEST_F(ClusterFailoverIntegrationTest, ALeaseQuestionWithATimeoutGivesUpThenAndKeepsItsMember) {
    const int leader = leaderOf(*cluster);
    ASSERT_GE(leader, 0);
    const int follower = (leader + 1) % 3;
    ClientOptions options;
    options.endpoints = endpointsFrom(*cluster, follower);
    options.commandTimeout = std::chrono::seconds(10); // 3.3 s per member for other calls
    auto client = std::move(Client::create(options)).value();
    pb::LeaseGrantRequest grant;
    grant.set_ttl(30);
    auto lease = call(*client, &Client::leaseGrant, grant);
    ASSERT_TRUE(lease) << lease.error().message;
    const std::string inUse = client->currentEndpoint();
    const int used = memberIndexOf(*cluster, inUse); // the follower, unless its dial was slow
    ASSERT_GE(used, 0);

    StoppedMember stopped(*cluster, used);
    pb::LeaseTimeToLiveRequest ttl;
    ttl.set_id(lease->id());
    const auto askedAt = std::chrono::steady_clock::now();
    auto left = waitFor<Result<pb::LeaseTimeToLiveResponse>>([&](auto done) {
        client->leaseTimeToLiveWithin(std::chrono::milliseconds(300), ttl, std::move(done));
    });
    const auto took = std::chrono::steady_clock::now() - askedAt;
    ASSERT_FALSE(left) << "a stopped member answered";
    EXPECT_EQ(left.error().code, ErrorCode::DeadlineExceeded) << left.error().message;
    EXPECT_LT(took, std::chrono::seconds(2)) << "the question outlived its timeout";
    EXPECT_EQ(client->currentEndpoint(), inUse);
}

TEST_F(ClusterFailoverIntegrationTest, AHungMemberIsLeftBehindByReleasesWatchesAndSessions) {
    auto client = connect(*cluster); // command timeout 10 s
    auto holderSession = createSession(*client, 3);
    auto waiterSession = createSession(*client, 3);
    ASSERT_TRUE(holderSession && waiterSession);
    auto holder = Mutex::create(*client, holderSession, "/failover/hung");
    auto waiter = Mutex::create(*client, waiterSession, "/failover/hung");
    ASSERT_TRUE(lockNow(*holder).ok());
    auto waiting = lockAsync(*waiter);
    ASSERT_TRUE(eventually([&] { return waiter->state() == Mutex::State::Waiting; }));

    const int used = memberIndexOf(*cluster, client->currentEndpoint());
    StoppedMember stopped(*cluster, used);
    const auto releasedAt = std::chrono::steady_clock::now();
    auto released = unlockNow(*holder);
    const auto releaseTook = std::chrono::steady_clock::now() - releasedAt;
    ASSERT_TRUE(released) << released.error().message;
    EXPECT_LT(releaseTook, std::chrono::seconds(5)) << "the release waited for the hung member";
    // The waiter's watch runs on the hung member until it is found silent.
    ASSERT_EQ(waiting.wait_for(std::chrono::seconds(6)), std::future_status::ready)
        << "the waiter never learned of the release";
    EXPECT_TRUE(waiting.get().ok());

    std::this_thread::sleep_for(std::chrono::seconds(8)); // over twice the TTL, still stopped
    EXPECT_FALSE(holderSession->lost());
    EXPECT_FALSE(waiterSession->lost());
    EXPECT_TRUE(waiter->held());
    EXPECT_NE(client->currentEndpoint(), cluster->endpoint(used));
    unlockNow(*waiter);
}

TEST_F(ClusterFailoverIntegrationTest, KillingTheLeaderLosesNoSession) {
    const int leader = leaderOf(*cluster);
    ASSERT_GE(leader, 0);
    ClientOptions options; // the leader first: the keepalive stream runs there and dies with it
    options.endpoints = endpointsFrom(*cluster, leader);
    auto client = std::move(Client::create(options)).value();
    std::vector<std::shared_ptr<Session>> sessions;
    // TTL 6: a session is kept only while a keepalive answer came within its TTL, and the last
    // one may be TTL/3 old when the leader dies; the election (1-2 s, more on a loaded machine)
    // and the failover must fit in the other 4 s.
    for (int i = 0; i < 20; ++i) {
        sessions.push_back(createSession(*client, 6));
        ASSERT_TRUE(sessions.back());
    }
    cluster->killMember(leader);
    std::this_thread::sleep_for(
        std::chrono::seconds(9)); // past the TTL: kept alive, not waited out
    int lost = 0;
    for (const auto& session : sessions)
        lost += session->lost() ? 1 : 0;
    EXPECT_EQ(lost, 0) << "etcd keeps leases across a leader change";
}

} // namespace
