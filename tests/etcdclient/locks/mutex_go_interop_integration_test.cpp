// Our Mutex against Go's concurrency.Mutex itself, run in the Go anchor (bench/go/main.go).
#include "etcdclient/locks/mutex.h"
#include "support/go_anchor_fixture.h"
#include "support/waiting.h"

#include <csignal>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

class MutexGoInteropIntegrationTest : public GoAnchorTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::size_t queueLength() { return keysUnder(lockName() + "/").size(); }
};

TEST_F(MutexGoInteropIntegrationTest, GoHoldsOursWaitsThenOursHoldsGoWaits) {
    auto goHolder = goAnchor({"mutex", lockName()});
    const std::string goKey = expectHeld(*goHolder);
    EXPECT_EQ(goKey.rfind(lockName() + "/", 0), 0u) << goKey;

    auto session = createSession(*client, 10);
    auto ours = Mutex::create(*client, session, lockName());
    auto waiting = lockAsync(*ours);
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout) << "ours ignored Go's holder";
    releaseGo(*goHolder);
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());

    auto goWaiter = goAnchor({"mutex", lockName()});
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    EXPECT_FALSE(goWaiter->saw("held", 500ms)) << "Go acquired while ours held the lock";
    ASSERT_TRUE(unlockNow(*ours).value());
    EXPECT_FALSE(expectHeld(*goWaiter).empty());
    releaseGo(*goWaiter);
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

TEST_F(MutexGoInteropIntegrationTest, MixedQueueAcquiresInCreateRevisionOrder) {
    auto first = goAnchor({"mutex", lockName()});
    const std::string firstKey = expectHeld(*first);
    auto session = createSession(*client, 10);
    auto ours = Mutex::create(*client, session, lockName());
    auto oursAcquired = lockAsync(*ours);
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    auto third = goAnchor({"mutex", lockName()});
    ASSERT_TRUE(eventually([&] { return queueLength() == 3; }));
    const auto queue = keysUnder(lockName() + "/");
    ASSERT_EQ(queue.size(), 3u);
    EXPECT_EQ(queue[0], firstKey);
    EXPECT_EQ(queue[1], ours->key());

    releaseGo(*first); // the second in line (ours) acquires, not the third (Go)
    ASSERT_EQ(oursAcquired.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(oursAcquired.get().ok());
    EXPECT_FALSE(third->saw("held", 300ms)) << "Go jumped the queue";
    ASSERT_TRUE(unlockNow(*ours).value());
    EXPECT_EQ(expectHeld(*third), queue[2]);
    releaseGo(*third);
}

} // namespace
