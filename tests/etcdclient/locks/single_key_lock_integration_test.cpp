#include "etcdclient/blocking.h"
#include "etcdclient/locks/single_key_lock.h"
#include "support/etcd_fixture.h"
#include "support/waiting.h"

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

class SingleKeyLockIntegrationTest : public EtcdTest {
protected:
    std::string lockKey() const { return prefix() + "job"; }
    std::vector<std::string> keys() { return keysUnder(prefix()); }
    static Error unlockNow(SingleKeyLock& lock) {
        return waitFor<Error>([&](auto done) { lock.unlock(std::move(done)); });
    }
    static Result<bool> tryLockNow(SingleKeyLock& lock) {
        return waitFor<Result<bool>>([&](auto done) { lock.tryLock(std::move(done)); });
    }
};

// The key is the lock: the holder's key is the name on its lease; a waiter holds no key and
// takes the lock once the holder's key is deleted, with a higher fencing token.
TEST_F(SingleKeyLockIntegrationTest, AWaiterHoldsNoKeyAndTakesTheLockOnceTheKeyIsDeleted) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto holder = SingleKeyLock::create(*client, s1, lockKey(), "holder");
    auto waiter = SingleKeyLock::create(*client, s2, lockKey(), "waiter");
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    pb::RangeRequest read;
    read.set_key(lockKey());
    auto got = call(*client, &Client::range, read);
    ASSERT_TRUE(got && got->kvs_size() == 1);
    EXPECT_EQ(got->kvs(0).lease(), s1->leaseId());
    EXPECT_EQ(got->kvs(0).value(), "holder");
    EXPECT_EQ(got->kvs(0).create_revision(), holder->fencingToken());

    auto waiting = lockAsync(*waiter);
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout) << "acquired while held";
    EXPECT_EQ(tryLockNow(*SingleKeyLock::create(*client, s2, lockKey())).value(), false);
    EXPECT_EQ(keys(), std::vector<std::string>{lockKey()}); // nothing but the holder's key
    ASSERT_TRUE(unlockNow(*holder).ok());
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_TRUE(waiter->held());
    EXPECT_GT(waiter->fencingToken(), holder->fencingToken());
    ASSERT_TRUE(unlockNow(*waiter).ok());
    EXPECT_TRUE(keys().empty());
}

TEST_F(SingleKeyLockIntegrationTest, ACancelledWaitEndsCancelledAndLeavesNothing) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto holder = SingleKeyLock::create(*client, s1, lockKey());
    auto waiter = SingleKeyLock::create(*client, s2, lockKey());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto waiting = lockAsync(*waiter);
    EXPECT_EQ(waiting.wait_for(200ms), std::future_status::timeout);
    waiter->cancel();
    ASSERT_EQ(waiting.wait_for(5s), std::future_status::ready);
    EXPECT_EQ(waiting.get().code, ErrorCode::Cancelled);
    ASSERT_TRUE(unlockNow(*holder).ok());
    EXPECT_TRUE(keys().empty());
    EXPECT_FALSE(waiter->held());
}

// A force release (the key deleted by someone else) or the lease revoked: the holder hears it.
TEST_F(SingleKeyLockIntegrationTest, AHolderWhoseKeyIsDeletedByAnotherIsToldItLostTheLock) {
    auto session = createSession(*client, 10);
    auto holder = SingleKeyLock::create(*client, session, lockKey());
    auto lost = std::make_shared<std::promise<Error>>();
    holder->onLost([lost](const Error& e) { lost->set_value(e); });
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    pb::DeleteRangeRequest force;
    force.set_key(lockKey());
    ASSERT_TRUE(call(*client, &Client::deleteRange, force));
    auto told = lost->get_future();
    ASSERT_EQ(told.wait_for(10s), std::future_status::ready);
    EXPECT_EQ(told.get().code, ErrorCode::LockLost);
    EXPECT_FALSE(holder->held());
}

} // namespace
