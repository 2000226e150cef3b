// Our RWMutex (a Mutex on the recipe's layout) against etcd 3.4's contrib/recipes RWMutex itself,
// run in the Go anchor (bench/go/main.go), in both directions.
#include "etcdclient/locks/rw_mutex.h"
#include "support/go_anchor_fixture.h"
#include "support/waiting.h"

#include <csignal>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::test;
using lockscope::process::GoAnchor;

namespace {

class RwMutexGoInteropIntegrationTest : public GoAnchorTest {
protected:
    void SetUp() override {
        GoAnchorTest::SetUp();
        if (!IsSkipped())
            session = createSession(*client, 10);
    }
    std::string lockName() const { return prefix() + "rw"; }
    std::size_t queueLength() { return keysUnder(lockName() + "/").size(); }
    std::shared_ptr<Mutex> ours(KeyMode mode) {
        return createLock(*client, session, lockName(), mode);
    }
    // A Go reader or writer ("rlock" or "wlock") that holds: its "held" line's key.
    std::unique_ptr<GoAnchor> goHolding(const char* command) {
        auto go = goAnchor({command, lockName()});
        const std::string key = expectHeld(*go);
        EXPECT_EQ(key.rfind(lockName() + "/", 0), 0u) << command << " holds " << key;
        return go;
    }
    // Go's `goCommand` holds; ours (`mode`) queues and waits until Go lets go, then holds.
    void expectOursWaitsForGo(const char* goCommand, KeyMode mode) {
        auto go = goHolding(goCommand);
        auto mine = ours(mode);
        auto acquired = lockAsync(*mine);
        ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
        EXPECT_EQ(acquired.wait_for(300ms), std::future_status::timeout)
            << "ours ignored Go's " << goCommand;
        releaseGo(*go);
        ASSERT_EQ(acquired.wait_for(10s), std::future_status::ready);
        EXPECT_TRUE(acquired.get().ok());
        ASSERT_TRUE(unlockNow(*mine).value());
    }
    // Ours (`mode`) holds; Go's `goCommand` queues and waits until ours lets go, then holds.
    void expectGoWaitsForOurs(KeyMode mode, const char* goCommand) {
        auto mine = ours(mode);
        ASSERT_TRUE(lockNow(*mine).ok());
        auto go = goAnchor({goCommand, lockName()});
        ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
        EXPECT_FALSE(go->saw("held", 500ms)) << "Go's " << goCommand << " ignored ours";
        ASSERT_TRUE(unlockNow(*mine).value());
        EXPECT_TRUE(go->saw("held", 10s)) << go->error();
        releaseGo(*go);
    }
    std::shared_ptr<Session> session;
};

TEST_F(RwMutexGoInteropIntegrationTest, OursWritesTheRecipesKeys) {
    auto reader = ours(KeyMode::Read);
    auto writer = ours(KeyMode::Write);
    EXPECT_EQ(reader->key().rfind(lockName() + "/read/", 0), 0u) << reader->key();
    EXPECT_EQ(writer->key().rfind(lockName() + "/write/", 0), 0u) << writer->key();
    ASSERT_TRUE(lockNow(*reader).ok());
    EXPECT_EQ(keysUnder(lockName() + "/"), std::vector<std::string>{reader->key()});
    ASSERT_TRUE(unlockNow(*reader).value());
    EXPECT_EQ(queueLength(), 0u);
}

TEST_F(RwMutexGoInteropIntegrationTest, GoReaderAndOurReaderShare) {
    auto goReader = goHolding("rlock");
    auto reader = ours(KeyMode::Read);
    auto acquired = lockAsync(*reader);
    ASSERT_EQ(acquired.wait_for(10s), std::future_status::ready) << "ours waited for a reader";
    EXPECT_TRUE(acquired.get().ok());
    EXPECT_EQ(queueLength(), 2u);

    auto secondGoReader = goHolding("rlock"); // and Go's reader shares with ours
    releaseGo(*secondGoReader);
    ASSERT_TRUE(unlockNow(*reader).value());
    releaseGo(*goReader);
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

TEST_F(RwMutexGoInteropIntegrationTest, OurWriterWaitsForGoReader) {
    expectOursWaitsForGo("rlock", KeyMode::Write);
}

TEST_F(RwMutexGoInteropIntegrationTest, GoWriterWaitsForOurReader) {
    expectGoWaitsForOurs(KeyMode::Read, "wlock");
}

TEST_F(RwMutexGoInteropIntegrationTest, ReadersWaitForTheOthersWriter) {
    expectGoWaitsForOurs(KeyMode::Write, "rlock");
    expectOursWaitsForGo("wlock", KeyMode::Read);
}

TEST_F(RwMutexGoInteropIntegrationTest, WritersExcludeEachOtherBothWays) {
    expectGoWaitsForOurs(KeyMode::Write, "wlock");
    expectOursWaitsForGo("wlock", KeyMode::Write);
}

TEST_F(RwMutexGoInteropIntegrationTest, AReaderBehindAWaitingWriterWaitsThoughReadersHold) {
    // Go's reader holds; our writer queues; a later reader (Go's, then ours) must not slip past
    // the writer even though only readers hold: the recipe's readers wait on earlier writers.
    auto goReader = goHolding("rlock");
    auto writer = ours(KeyMode::Write);
    auto writerAcquired = lockAsync(*writer);
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    auto lateGoReader = goAnchor({"rlock", lockName()});
    ASSERT_TRUE(eventually([&] { return queueLength() == 3; }));
    auto lateReader = ours(KeyMode::Read);
    auto lateAcquired = lockAsync(*lateReader);
    ASSERT_TRUE(eventually([&] { return queueLength() == 4; }));
    EXPECT_FALSE(lateGoReader->saw("held", 300ms)) << "Go's reader slipped past a writer";
    EXPECT_EQ(lateAcquired.wait_for(0ms), std::future_status::timeout)
        << "our reader slipped past a writer";

    releaseGo(*goReader);
    ASSERT_EQ(writerAcquired.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(writerAcquired.get().ok());
    EXPECT_FALSE(lateGoReader->saw("held", 300ms)) << "a reader holds beside the writer";
    ASSERT_TRUE(unlockNow(*writer).value());
    EXPECT_TRUE(lateGoReader->saw("held", 10s)) << lateGoReader->error();
    ASSERT_EQ(lateAcquired.wait_for(10s), std::future_status::ready); // both readers share
    EXPECT_TRUE(lateAcquired.get().ok());
    ASSERT_TRUE(unlockNow(*lateReader).value());
    releaseGo(*lateGoReader);
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

} // namespace
