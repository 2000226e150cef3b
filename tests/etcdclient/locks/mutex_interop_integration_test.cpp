// Our Mutex against Debian's real `etcdctl lock` (Go's concurrency.Mutex) on one lock.
#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "etcdclient/locks/mutex.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "support/etcd_fixture.h"
#include "support/waiting.h"

#include <csignal>
#include <fstream>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class MutexInteropIntegrationTest : public EtcdTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::size_t queueLength() {
        pb::RangeRequest r;
        r.set_key(lockName() + "/");
        r.set_range_end(prefixRangeEnd(lockName() + "/"));
        r.set_count_only(true);
        auto got = call(*client, &Client::range, r);
        EXPECT_TRUE(got) << got.error().message;
        return got ? static_cast<std::size_t>(got->count()) : 0;
    }
    std::unique_ptr<ChildProcess> etcdctlLock(std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"lock"};
        args.insert(args.end(), extra.begin(), extra.end());
        args.insert(args.begin() + 1, lockName());
        return std::make_unique<ChildProcess>(etcdctlArgs(cluster().endpointList(), args),
                                              std::vector<std::string>{"ETCDCTL_API=3"});
    }
};

TEST_F(MutexInteropIntegrationTest, OursWaitsForEtcdctlAndEtcdctlWaitsForOurs) {
    auto held = etcdctlLock();
    auto line = held->readLine(10s);
    ASSERT_TRUE(line) << "etcdctl lock did not acquire";
    EXPECT_EQ(line->rfind(lockName() + "/", 0), 0u) << *line;

    auto session = createSession(*client, 10);
    auto ours = Mutex::create(*client, session, lockName());
    auto waiting = lockAsync(*ours);
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout) << "ours ignored etcdctl";
    held->signal(SIGINT); // etcdctl unlocks and revokes on a signal
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_EQ(held->wait(5s), 0);

    auto next = etcdctlLock();
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    EXPECT_FALSE(next->readLine(500ms)) << "etcdctl acquired while ours held the lock";
    ASSERT_TRUE(unlockNow(*ours).value());
    auto acquired = next->readLine(10s);
    ASSERT_TRUE(acquired) << "etcdctl did not acquire after our unlock";
    EXPECT_EQ(acquired->rfind(lockName() + "/", 0), 0u);
    next->signal(SIGINT);
    EXPECT_EQ(next->wait(5s), 0);
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

TEST_F(MutexInteropIntegrationTest, SixMixedContendersAcquireInQueueOrder) {
    // Every holder appends its name to one log while it holds the lock, then lets go.
    const std::string log = ::testing::TempDir() + "order-" + std::to_string(::getpid()) + ".log";
    std::remove(log.c_str());
    std::mutex appendMutex;
    auto append = [&](const std::string& who) {
        std::lock_guard lock(appendMutex);
        std::ofstream(log, std::ios::app) << who << "\n";
    };

    std::vector<std::shared_ptr<Session>> sessions;
    std::vector<std::shared_ptr<Mutex>> ours;
    std::vector<std::unique_ptr<ChildProcess>> theirs;
    std::vector<std::thread> oursHolding;
    std::vector<std::string> expected;
    // The first holder keeps the lock until everyone has queued behind it.
    std::promise<void> allQueued;
    std::shared_future<void> go = allQueued.get_future().share();
    for (int i = 0; i < 6; ++i) {
        const std::string who = (i % 2 == 0 ? "ours-" : "etcdctl-") + std::to_string(i);
        expected.push_back(who);
        if (i % 2 == 0) {
            sessions.push_back(createSession(*client, 10));
            ours.push_back(Mutex::create(*client, sessions.back(), lockName()));
            auto mutex = ours.back();
            auto locked = std::make_shared<std::future<Error>>(lockAsync(*mutex));
            oursHolding.emplace_back([=] {
                ASSERT_TRUE(locked->get().ok());
                append(who);
                go.wait();
                std::this_thread::sleep_for(200ms);
                ASSERT_TRUE(unlockNow(*mutex).value());
            });
        } else {
            theirs.push_back(
                etcdctlLock({"--", "sh", "-c", "echo " + who + " >> '" + log + "'; sleep 0.2"}));
        }
        const bool queued = eventually([&] { return queueLength() == std::size_t(i + 1); });
        EXPECT_TRUE(queued) << who << " did not queue";
        if (!queued)
            break;
    }
    allQueued.set_value();
    for (auto& t : oursHolding)
        t.join();
    for (auto& p : theirs)
        EXPECT_EQ(p->wait(15s), 0);

    std::ifstream in(log);
    std::vector<std::string> order;
    for (std::string line; std::getline(in, line);)
        order.push_back(line);
    EXPECT_EQ(order, expected);
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

TEST_F(MutexInteropIntegrationTest, StoppedEtcdctlHolderExpiresAndOurWaiterTakesOver) {
    auto held = etcdctlLock({"--ttl", "2"});
    ASSERT_TRUE(held->readLine(10s));
    auto session = createSession(*client, 10);
    auto ours = Mutex::create(*client, session, lockName());
    auto waiting = lockAsync(*ours);
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    held->signal(SIGSTOP); // a stalled Go holder: its keepalives stop
    const auto stopped = std::chrono::steady_clock::now();
    ASSERT_EQ(waiting.wait_for(8s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_LT(std::chrono::steady_clock::now() - stopped, 5s);
    held->signal(SIGKILL);
    ASSERT_TRUE(unlockNow(*ours).value());
}

TEST_F(MutexInteropIntegrationTest, OurPausedHolderLosesToAnEtcdctlWaiter) {
    auto session = createSession(*client, 2);
    auto ours = Mutex::create(*client, session, lockName());
    ASSERT_TRUE(lockAsync(*ours).get().ok());
    std::promise<void> lost;
    ours->onLost([&](const Error&) { lost.set_value(); });
    auto next = etcdctlLock();
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    session->setPaused(true);
    auto acquired = next->readLine(8s);
    ASSERT_TRUE(acquired) << "etcdctl never got the lock from our stalled holder";
    EXPECT_EQ(lost.get_future().wait_for(1s), std::future_status::ready);
    pb::RequestOp write;
    write.mutable_request_put()->set_key(prefix() + "resource");
    std::promise<Result<bool>> applied;
    ours->guardedWrite({write}, [&](Result<bool> r) { applied.set_value(std::move(r)); });
    EXPECT_FALSE(applied.get_future().get().value());
    next->signal(SIGINT);
    EXPECT_EQ(next->wait(5s), 0);
}

} // namespace
