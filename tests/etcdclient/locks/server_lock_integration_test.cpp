// ServerLock (etcd's v3lock service) against a real etcd: cancel, loss, and one queue shared
// with our Mutex and Debian's real `etcdctl lock`.
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/server_lock.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/waiting.h"

#include <csignal>
#include <fstream>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

std::future<Error> serverLockAsync(ServerLock& lock) {
    auto promise = std::make_shared<std::promise<Error>>();
    lock.lock(ServerLock::noWaitLimit, [promise](const Error& e) { promise->set_value(e); });
    return promise->get_future();
}

class ServerLockIntegrationTest : public EtcdTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::vector<std::string> queue() { return keysUnder(lockName() + "/"); }
};

// A ServerLock destroyed while it waits: its call ends, the server deletes the waiting key,
// and the session lives on; destroyed while holding, it gives the lock back.
TEST_F(ServerLockIntegrationTest, DestroyedWhileWaitingOrHoldingLeavesNoKeyOfOurs) {
    auto holder = Mutex::create(*client, createSession(*client, 10), lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto session = createSession(*client, 30);
    auto server = ServerLock::create(*client, session, lockName());
    server->lock(ServerLock::noWaitLimit, [](const Error&) {});
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    server.reset();
    ASSERT_TRUE(eventually([&] { return queue().size() == 1; }));
    EXPECT_EQ(queue().front(), holder->key());

    ASSERT_TRUE(unlockNow(*holder).value());
    server = ServerLock::create(*client, session, lockName());
    ASSERT_TRUE(serverLockAsync(*server).get().ok());
    EXPECT_EQ(queue().size(), 1u);
    server.reset();
    EXPECT_TRUE(eventually([&] { return queue().empty(); }));
    EXPECT_FALSE(session->lost());
}

TEST_F(ServerLockIntegrationTest, CancellingAWaitClosesTheCallAndTheServerDeletesOurKey) {
    auto holder = Mutex::create(*client, createSession(*client, 10), lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto session = createSession(*client, 10);
    auto server = ServerLock::create(*client, session, lockName());
    auto waiting = serverLockAsync(*server);
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    EXPECT_EQ(queue().back(), lockName() + "/" + leaseHex(session->leaseId()));
    EXPECT_EQ(server->state(), ServerLock::State::Waiting);

    server->cancel();
    ASSERT_EQ(waiting.wait_for(5s), std::future_status::ready);
    EXPECT_EQ(waiting.get().code, ErrorCode::Cancelled);
    EXPECT_EQ(server->state(), ServerLock::State::Idle);
    // Our session lives on; only the waiting key is gone, deleted by the server.
    ASSERT_TRUE(eventually([&] { return queue().size() == 1; }));
    EXPECT_EQ(queue().front(), holder->key());
    EXPECT_FALSE(session->lost());

    // The same ServerLock can queue again, and gets the lock when the holder lets go.
    auto again = serverLockAsync(*server);
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    ASSERT_TRUE(unlockNow(*holder).value());
    ASSERT_EQ(again.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(again.get().ok());
    EXPECT_TRUE(server->held());
    EXPECT_GT(server->fencingToken(), holder->fencingToken());
    waitFor<Error>([&](auto done) { server->unlock(std::move(done)); });
    EXPECT_TRUE(queue().empty());
}

TEST_F(ServerLockIntegrationTest, AHeldLockIsReportedLostWhenTheSessionsLeaseEnds) {
    auto session = createSession(*client, 10);
    auto server = ServerLock::create(*client, session, lockName());
    std::promise<Error> lost;
    server->onLost([&](const Error& e) { lost.set_value(e); });
    ASSERT_TRUE(serverLockAsync(*server).get().ok());
    auto revoked =
        etcdctl(cluster().endpointList(), {"lease", "revoke", leaseHex(session->leaseId())});
    ASSERT_EQ(revoked.exitCode, 0) << revoked.output;
    auto f = lost.get_future();
    ASSERT_EQ(f.wait_for(10s), std::future_status::ready);
    EXPECT_FALSE(f.get().ok());
    EXPECT_EQ(server->state(), ServerLock::State::Lost);
}

TEST_F(ServerLockIntegrationTest, AWaitEndsWithTheSessionsErrorWhenItIsLost) {
    auto holder = Mutex::create(*client, createSession(*client, 10), lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto session = createSession(*client, 10);
    auto server = ServerLock::create(*client, session, lockName());
    auto waiting = serverLockAsync(*server);
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    auto revoked =
        etcdctl(cluster().endpointList(), {"lease", "revoke", leaseHex(session->leaseId())});
    ASSERT_EQ(revoked.exitCode, 0) << revoked.output;
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_FALSE(waiting.get().ok());
    EXPECT_EQ(queue().size(), 1u);
    ASSERT_TRUE(unlockNow(*holder).value());
}

// One lock name, five contenders of three kinds queued one after another behind a Mutex
// holder: each takes the lock in its create-revision order, and only after the one before it
// let go.
TEST_F(ServerLockIntegrationTest, ServerLockMutexAndEtcdctlTakeTurnsInQueueOrder) {
    const std::string log = ::testing::TempDir() + "server-order-" + std::to_string(::getpid());
    std::remove(log.c_str());
    std::mutex appendMutex;
    auto append = [&](const std::string& who) {
        std::lock_guard lock(appendMutex);
        std::ofstream(log, std::ios::app) << who << "\n";
    };
    std::promise<void> allQueued;
    std::shared_future<void> go = allQueued.get_future().share();
    std::vector<std::thread> holding;
    std::vector<std::unique_ptr<lockscope::process::ChildProcess>> theirs;
    std::vector<std::shared_ptr<Session>> sessions;
    const std::vector<std::string> kinds = {"mutex", "server", "etcdctl",
                                            "mutex", "server", "etcdctl"};
    std::vector<std::string> expected;
    // Holds while appending, lets go 200 ms later (the first one only once all have queued).
    auto holdThenRelease = [&](std::string who, std::shared_ptr<std::future<Error>> locked,
                               std::function<void()> release) {
        holding.emplace_back([=, &append] {
            ASSERT_TRUE(locked->get().ok()) << who;
            append(who);
            go.wait();
            std::this_thread::sleep_for(200ms);
            append(who + " released");
            release();
        });
    };
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const std::string who = kinds[i] + "-" + std::to_string(i);
        expected.push_back(who);
        expected.push_back(who + " released");
        sessions.push_back(createSession(*client, 10));
        if (kinds[i] == "mutex") {
            auto mutex = Mutex::create(*client, sessions.back(), lockName());
            holdThenRelease(who, std::make_shared<std::future<Error>>(lockAsync(*mutex)),
                            [mutex] { ASSERT_TRUE(unlockNow(*mutex).value()); });
        } else if (kinds[i] == "server") {
            auto server = ServerLock::create(*client, sessions.back(), lockName());
            holdThenRelease(
                who, std::make_shared<std::future<Error>>(serverLockAsync(*server)), [server] {
                    EXPECT_TRUE(
                        waitFor<Error>([&](auto done) { server->unlock(std::move(done)); }).ok());
                });
        } else {
            theirs.push_back(etcdctlLock(cluster().endpointList(), lockName(),
                                         {"--", "sh", "-c",
                                          "echo " + who + " >> '" + log + "'; sleep 0.2; echo '" +
                                              who + " released' >> '" + log + "'"}));
        }
        const bool queued = eventually([&] { return queue().size() == i + 1; });
        ASSERT_TRUE(queued) << who << " did not queue";
    }
    allQueued.set_value();
    for (auto& t : holding)
        t.join();
    for (auto& p : theirs)
        EXPECT_EQ(p->wait(15s), 0);
    std::ifstream in(log);
    std::vector<std::string> order;
    for (std::string line; std::getline(in, line);)
        order.push_back(line);
    EXPECT_EQ(order, expected);
    EXPECT_TRUE(eventually([&] { return queue().empty(); }));
}

} // namespace
