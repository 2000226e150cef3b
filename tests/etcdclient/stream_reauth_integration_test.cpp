#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "process/local_cluster.h"
#include "support/etcd_auth.h"
#include "support/waiting.h"
#include "support/watch_log.h"

#include <gtest/gtest.h>

using namespace etcd;
using lockscope::test::eventually;
using lockscope::test::lockAsync;
using lockscope::test::WatchLog;

namespace {

// etcd with auth on whose simple tokens die under running watch and keepalive streams: by a
// restart (etcd forgets every token) or by --auth-token-ttl.
class StreamReauthIntegrationTest : public ::testing::Test {
protected:
    void SetUp() override { startWith({}); }

    void startWith(std::vector<std::string> etcdArguments) {
        cluster.setExtraArguments(std::move(etcdArguments));
        const Error started = cluster.start();
        ASSERT_TRUE(started.ok()) << started.message;
        const std::string refused = lockscope::test::enableAuthentication(cluster.endpointList());
        ASSERT_TRUE(refused.empty()) << refused;
    }

    std::unique_ptr<Client> clientAs(const std::string& user, const std::string& password) {
        ClientOptions options;
        options.endpoints = cluster.endpoints();
        options.username = user;
        options.password = password;
        auto created = Client::create(options);
        EXPECT_TRUE(created);
        return std::move(created).value();
    }
    std::unique_ptr<Client> alice() {
        return clientAs(lockscope::test::authUser, lockscope::test::authPassword);
    }

    void restart() {
        ASSERT_TRUE(cluster.restartMember(0).ok());
        ASSERT_TRUE(cluster.waitReady().ok());
    }

    static pb::PutRequest putOf(const std::string& key, const std::string& value) {
        pb::PutRequest p;
        p.set_key(key);
        p.set_value(value);
        return p;
    }

    LocalCluster cluster{1};
};

TEST_F(StreamReauthIntegrationTest, AWatchResumesAcrossARestartWithoutLosingOrRepeatingEvents) {
    auto client = alice();
    WatchLog watched;
    pb::WatchCreateRequest request;
    request.set_key("/alice/w/");
    request.set_range_end(prefixRangeEnd("/alice/w/"));
    auto handle = client->watch(request, watched.callbacks());
    ASSERT_TRUE(watched.waitFor([](WatchLog& w) { return w.created; }));
    ASSERT_TRUE(call(*client, &Client::put, putOf("/alice/w/a", "1")));
    ASSERT_TRUE(watched.waitFor([](WatchLog& w) { return w.events.size() == 1; }));

    restart();
    for (const char* value : {"2", "3", "4"}) {
        auto put = call(*client, &Client::put, putOf("/alice/w/a", value));
        ASSERT_TRUE(put) << put.error().message;
    }
    ASSERT_TRUE(watched.waitFor([](WatchLog& w) { return w.events.size() >= 4; }))
        << "the watch did not come back after the restart";
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); // room for a repeat to show
    EXPECT_EQ(watched.values(), (std::vector<std::string>{"1", "2", "3", "4"}));
    std::lock_guard lock(watched.mutex);
    EXPECT_FALSE(watched.end) << watched.end->message;
}

TEST_F(StreamReauthIntegrationTest, ASessionSurvivesARestart) {
    auto client = alice();
    auto session = createSession(*client, 5);
    ASSERT_TRUE(session);
    restart();
    std::this_thread::sleep_for(std::chrono::seconds(7)); // longer than the TTL
    EXPECT_FALSE(session->lost());
    pb::LeaseTimeToLiveRequest ttl;
    ttl.set_id(session->leaseId());
    auto left = call(*client, &Client::leaseTimeToLive, ttl);
    ASSERT_TRUE(left) << left.error().message;
    EXPECT_GT(left->ttl(), 0) << "keepalives stopped after the restart";
}

TEST_F(StreamReauthIntegrationTest, AQueuedWaiterAcquiresWhenItsPredecessorReleasesAfterARestart) {
    auto first = alice();
    auto second = alice();
    auto holder = Mutex::create(*first, createSession(*first, 5), "/alice/queue");
    auto waiter = Mutex::create(*second, createSession(*second, 5), "/alice/queue");
    ASSERT_TRUE(lockNow(*holder).ok());
    auto waiting = lockAsync(*waiter);
    ASSERT_TRUE(eventually([&] { return waiter->state() == Mutex::State::Waiting; }));

    restart();
    auto released = unlockNow(*holder);
    ASSERT_TRUE(released) << released.error().message;
    EXPECT_TRUE(*released);
    ASSERT_EQ(waiting.wait_for(std::chrono::seconds(5)), std::future_status::ready)
        << "the waiter never learned that the lock was free";
    const Error acquired = waiting.get();
    EXPECT_TRUE(acquired.ok()) << acquired.message;
    EXPECT_TRUE(waiter->held());
    unlockNow(*waiter);
}

TEST_F(StreamReauthIntegrationTest, AHolderLearnsWithinASecondThatItsKeyWasDeletedAfterARestart) {
    auto client = alice();
    auto holder = Mutex::create(*client, createSession(*client, 5), "/alice/held");
    ASSERT_TRUE(lockNow(*holder).ok());
    auto lost = std::make_shared<std::promise<Error>>();
    holder->onLost([lost](const Error& e) { lost->set_value(e); });

    restart();
    auto root = clientAs("root", "rootpw");
    pb::DeleteRangeRequest del;
    del.set_key(holder->key());
    const auto deletedAt = std::chrono::steady_clock::now();
    ASSERT_TRUE(call(*root, &Client::deleteRange, del));
    auto lostFuture = lost->get_future();
    ASSERT_EQ(lostFuture.wait_for(std::chrono::seconds(5)), std::future_status::ready)
        << "the holder never noticed that its key was deleted";
    const auto noticedAfter = std::chrono::steady_clock::now() - deletedAt;
    EXPECT_EQ(lostFuture.get().code, ErrorCode::LockLost);
    EXPECT_LT(noticedAfter, std::chrono::seconds(1));
}

class TokenExpiryIntegrationTest : public StreamReauthIntegrationTest {
protected:
    void SetUp() override { startWith({"--auth-token=simple", "--auth-token-ttl=5"}); }
};

TEST_F(TokenExpiryIntegrationTest, NewWatchesAndAQueuedWaiterWorkAfterTheTokenExpired) {
    auto first = alice();
    auto second = alice();
    auto holder = Mutex::create(*first, createSession(*first, 5), "/alice/expiry");
    auto waiter = Mutex::create(*second, createSession(*second, 5), "/alice/expiry");
    ASSERT_TRUE(lockNow(*holder).ok());
    auto waiting = lockAsync(*waiter);
    ASSERT_TRUE(eventually([&] { return waiter->state() == Mutex::State::Waiting; }));

    std::this_thread::sleep_for(std::chrono::seconds(7)); // both clients' tokens expire unused
    // A new watch on the waiter's open stream, whose token the server no longer knows.
    WatchLog watched;
    pb::WatchCreateRequest request;
    request.set_key("/alice/expiry-watched");
    auto handle = second->watch(request, watched.callbacks());
    ASSERT_TRUE(watched.waitFor([](WatchLog& w) { return w.created; }, std::chrono::seconds(5)));
    ASSERT_TRUE(unlockNow(*holder));
    ASSERT_EQ(waiting.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    ASSERT_TRUE(call(*first, &Client::put, putOf("/alice/expiry-watched", "x")));
    ASSERT_TRUE(
        watched.waitFor([](WatchLog& w) { return w.events.size() == 1; }, std::chrono::seconds(5)));
    std::lock_guard lock(watched.mutex);
    EXPECT_FALSE(watched.end) << watched.end->message;
    unlockNow(*waiter);
}

} // namespace
