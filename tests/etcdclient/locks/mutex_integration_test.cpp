#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/server_lock.h"
#include "support/client_thread_block.h"
#include "support/etcd_fixture.h"
#include "support/waiting.h"

#include <algorithm>
#include <atomic>
#include <thread>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

class MutexIntegrationTest : public EtcdTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::size_t queueLength() { return keysUnder(lockName() + "/").size(); }
};

TEST_F(MutexIntegrationTest, AKeyOfOursOnAnotherLeaseIsNotAdopted) {
    auto session = createSession(*client, 10);
    auto other = createSession(*client, 10);
    auto mutex = Mutex::create(*client, session, lockName());
    pb::PutRequest squat; // our key's name, on someone else's lease
    squat.set_key(mutex->key());
    squat.set_lease(other->leaseId());
    ASSERT_TRUE(call(*client, &Client::put, squat));
    const Error locked = lockAsync(*mutex).get();
    EXPECT_EQ(locked.code, ErrorCode::FailedPrecondition) << locked.message;
    EXPECT_NE(locked.message.find("already exists on another lease"), std::string::npos);
    EXPECT_FALSE(mutex->held());
    EXPECT_EQ(keysUnder(lockName() + "/"), std::vector<std::string>{mutex->key()});
    other->close(); // its lease takes the key with it
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

TEST_F(MutexIntegrationTest, KeyIsNameSlashLeaseHexOnTheSessionLease) {
    auto session = createSession(*client, 10);
    auto mutex = Mutex::create(*client, session, lockName());
    ASSERT_TRUE(lockAsync(*mutex).get().ok());
    EXPECT_EQ(mutex->key(), lockName() + "/" + leaseHex(session->leaseId()));
    pb::RangeRequest r;
    r.set_key(mutex->key());
    auto got = call(*client, &Client::range, r);
    ASSERT_TRUE(got);
    ASSERT_EQ(got->kvs_size(), 1);
    EXPECT_EQ(got->kvs(0).lease(), session->leaseId());
    EXPECT_EQ(got->kvs(0).value(), "");
    EXPECT_EQ(got->kvs(0).create_revision(), mutex->fencingToken());
    EXPECT_TRUE(mutex->held());
    ASSERT_TRUE(unlockNow(*mutex).value());
    EXPECT_EQ(queueLength(), 0u);
}

TEST_F(MutexIntegrationTest, WaiterAcquiresOnTheHoldersDeleteAndTokensRise) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto holder = Mutex::create(*client, s1, lockName());
    auto waiter = Mutex::create(*client, s2, lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto waiting = lockAsync(*waiter);
    ASSERT_TRUE(eventually([&] { return waiter->state() == Mutex::State::Waiting; }));
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout) << "acquired while held";
    EXPECT_EQ(waiter->predecessorsLeft(), 1u);
    ASSERT_TRUE(unlockNow(*holder).value());
    ASSERT_EQ(waiting.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_GT(waiter->fencingToken(), holder->fencingToken());
    ASSERT_TRUE(unlockNow(*waiter).value());
}

// etcd leaves a watch registered while a write lands to its catch-up pass, up to 100 ms later
// (docs/design.md). A waiter joins its client's running watch of the prefix instead, so with
// writes landing all the while, between its queue read and its watch joining too, it learns its
// predecessor's delete as soon as etcd commits it. Medians and counts, not single samples: a
// loaded 2-core machine can stall any one handoff.
TEST_F(MutexIntegrationTest, AWaiterLearnsThePredecessorsDeletePromptlyWhileWritesLand) {
    constexpr int rounds = 30;
    auto writer = makeClient();
    std::atomic<bool> stop{false};
    std::atomic<int> writes{0};
    std::vector<std::thread> writers;
    for (int t = 0; t < 3; ++t)
        writers.emplace_back([&, t] {
            pb::PutRequest put;
            put.set_key(prefix() + "elsewhere/" + std::to_string(t));
            while (!stop)
                if (call(*writer, &Client::put, put))
                    ++writes;
        });
    auto holderSession = createSession(*client, 10);
    auto waiterSession = createSession(*client, 10);
    std::vector<double> handoffMs;
    for (int round = 0; round < rounds; ++round) {
        auto holder = Mutex::create(*client, holderSession, lockName());
        auto waiter = Mutex::create(*client, waiterSession, lockName());
        ASSERT_TRUE(lockNow(*holder).ok());
        auto waiting = lockAsync(*waiter);
        // Queued, its watch running and its read answered: what is left is the handoff.
        ASSERT_TRUE(eventually([&] {
            return waiter->state() == Mutex::State::Waiting && waiter->predecessorsLeft() == 1;
        }));
        const auto start = std::chrono::steady_clock::now();
        holder->unlock();
        ASSERT_EQ(waiting.wait_for(5s), std::future_status::ready);
        handoffMs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
        ASSERT_TRUE(waiting.get().ok());
        ASSERT_TRUE(unlockNow(*waiter).value());
    }
    stop = true;
    for (auto& t : writers)
        t.join();
    EXPECT_GT(writes.load(), rounds * 10) << "the writes must land throughout";
    std::vector<double> sorted = handoffMs;
    std::sort(sorted.begin(), sorted.end());
    const auto late =
        std::count_if(sorted.begin(), sorted.end(), [](double ms) { return ms > 90; });
    std::string all;
    for (double ms : handoffMs)
        all += std::to_string(static_cast<int>(ms)) + " ";
    EXPECT_LT(sorted[rounds / 2], 60) << "handoffs (ms): " << all;
    EXPECT_LE(late, rounds / 10) << "handoffs (ms): " << all;
}

TEST_F(MutexIntegrationTest, AWaiterBehindSeveralAcquiresOnlyWhenAllOlderKeysAreGone) {
    std::vector<std::shared_ptr<Session>> sessions;
    std::vector<std::shared_ptr<Mutex>> mutexes;
    std::vector<std::future<Error>> locks;
    for (int i = 0; i < 4; ++i) {
        sessions.push_back(createSession(*client, 10));
        mutexes.push_back(Mutex::create(*client, sessions.back(), lockName()));
        locks.push_back(lockAsync(*mutexes.back()));
        ASSERT_TRUE(eventually([&] { return queueLength() == std::size_t(i + 1); }));
    }
    ASSERT_EQ(locks[0].wait_for(5s), std::future_status::ready);
    // Release out of queue order: waiters 1 and 2 leave before the holder does.
    mutexes[2]->cancel();
    EXPECT_EQ(locks[2].get().code, ErrorCode::Cancelled);
    mutexes[1]->cancel();
    EXPECT_EQ(locks[1].get().code, ErrorCode::Cancelled);
    EXPECT_EQ(locks[3].wait_for(300ms), std::future_status::timeout);
    ASSERT_TRUE(unlockNow(*mutexes[0]).value());
    ASSERT_EQ(locks[3].wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(locks[3].get().ok());
    ASSERT_TRUE(unlockNow(*mutexes[3]).value());
    EXPECT_EQ(queueLength(), 0u);
}

TEST_F(MutexIntegrationTest, CancellingAWaitLeavesNoKey) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto holder = Mutex::create(*client, s1, lockName());
    auto waiter = Mutex::create(*client, s2, lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto waiting = lockAsync(*waiter);
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    waiter->cancel();
    EXPECT_EQ(waiting.get().code, ErrorCode::Cancelled);
    ASSERT_TRUE(eventually([&] { return queueLength() == 1; }));
    EXPECT_EQ(keysUnder(lockName() + "/").front(), holder->key());
}

TEST_F(MutexIntegrationTest, CancelRightAfterLockLeavesNoKey) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto holder = Mutex::create(*client, s1, lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto waiter = Mutex::create(*client, s2, lockName());
    auto waiting = lockAsync(*waiter);
    waiter->cancel(); // most likely while the acquire Txn is still in flight
    EXPECT_EQ(waiting.get().code, ErrorCode::Cancelled);
    ASSERT_TRUE(eventually([&] { return queueLength() == 1; }));
}

// unlock() while the acquire Txn's reply waits to be handled (the client's thread is busy):
// the Txn created our key, so unlock must not answer before that key is gone, and the lock must
// not become held afterwards. Both for lock() and for tryLock().
TEST_F(MutexIntegrationTest, UnlockWhileTheAcquireReplyWaitsAnswersOnlyOnceOurKeyIsGone) {
    auto observer = makeClient();
    for (const bool viaTryLock : {false, true}) {
        SCOPED_TRACE(viaTryLock ? "tryLock" : "lock");
        auto session = createSession(*client, 10);
        auto mutex = Mutex::create(*client, session, lockName());
        auto acquired = std::make_shared<std::promise<Result<bool>>>();
        auto unlocked = std::make_shared<std::promise<Result<bool>>>();
        auto acquiredFuture = acquired->get_future();
        auto unlockedFuture = unlocked->get_future();
        {
            ClientThreadBlock block(*client);
            if (viaTryLock)
                mutex->tryLock([acquired](Result<bool> r) { acquired->set_value(std::move(r)); });
            else
                mutex->lock([acquired](const Error& e) {
                    acquired->set_value(e.ok() ? Result<bool>(true) : Result<bool>(e));
                });
            ASSERT_TRUE(eventually([&] {
                return keysUnder(*observer, lockName() + "/").size() == 1;
            })) << "the acquire Txn never reached etcd";
            mutex->unlock([unlocked](Result<bool> r) { unlocked->set_value(std::move(r)); });
            EXPECT_EQ(unlockedFuture.wait_for(300ms), std::future_status::timeout)
                << "unlock answered while our key was still on the server";
        }
        ASSERT_EQ(unlockedFuture.wait_for(5s), std::future_status::ready);
        const auto answer = unlockedFuture.get();
        ASSERT_TRUE(answer) << answer.error().message;
        EXPECT_TRUE(answer.value()) << "our key was there and unlock removed it";
        EXPECT_TRUE(keysUnder(*observer, lockName() + "/").empty()) << "our key outlived unlock";
        ASSERT_EQ(acquiredFuture.wait_for(5s), std::future_status::ready);
        const auto outcome = acquiredFuture.get();
        EXPECT_FALSE(outcome && outcome.value()) << "acquired after unlock answered";
        EXPECT_NE(mutex->state(), Mutex::State::Held);
        EXPECT_TRUE(keysUnder(*observer, lockName() + "/").empty());
    }
}

TEST_F(MutexIntegrationTest, TryLockOnAHeldLockSaysNoAndLeavesNoKey) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto holder = Mutex::create(*client, s1, lockName());
    ASSERT_TRUE(tryLockNow(*holder).value());
    auto other = Mutex::create(*client, s2, lockName());
    auto tried = tryLockNow(*other);
    ASSERT_TRUE(tried) << tried.error().message;
    EXPECT_FALSE(tried.value());
    EXPECT_EQ(queueLength(), 1u);
    ASSERT_TRUE(unlockNow(*holder).value());
    EXPECT_TRUE(tryLockNow(*other).value());
    ASSERT_TRUE(unlockNow(*other).value());
}

TEST_F(MutexIntegrationTest, DestroyingAWaitingOrHeldMutexRemovesItsKey) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto holder = Mutex::create(*client, s1, lockName());
    auto waiter = Mutex::create(*client, s2, lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    auto waiting = lockAsync(*waiter);
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    waiter.reset();
    holder.reset();
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

TEST_F(MutexIntegrationTest, PausedHolderLosesTheLockToTheNextWaiterAndItsGuardedWriteIsRejected) {
    auto s1 = createSession(*client, 2);
    auto s2 = createSession(*client, 10);
    auto holder = Mutex::create(*client, s1, lockName());
    auto waiter = Mutex::create(*client, s2, lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    std::promise<Error> lost;
    holder->onLost([&](const Error& e) { lost.set_value(e); });
    auto waiting = lockAsync(*waiter);
    ASSERT_TRUE(eventually([&] { return waiter->state() == Mutex::State::Waiting; }));

    s1->setPaused(true); // the stalled holder
    auto lostFuture = lost.get_future();
    ASSERT_EQ(lostFuture.wait_for(6s), std::future_status::ready) << "loss never reported";
    ASSERT_EQ(waiting.wait_for(6s), std::future_status::ready) << "the next waiter never got in";
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_EQ(holder->state(), Mutex::State::Lost);

    pb::RequestOp write;
    write.mutable_request_put()->set_key(prefix() + "resource");
    write.mutable_request_put()->set_value("from the stale holder");
    std::promise<Result<bool>> applied;
    holder->guardedWrite({write}, [&](Result<bool> r) { applied.set_value(std::move(r)); });
    auto a = applied.get_future().get();
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_FALSE(a.value()) << "a write guarded by a lost lock must be rejected";

    std::promise<Result<bool>> fresh;
    waiter->guardedWrite({write}, [&](Result<bool> r) { fresh.set_value(std::move(r)); });
    EXPECT_TRUE(fresh.get_future().get().value());
}

TEST_F(MutexIntegrationTest, StaleUnlockDoesNotDeleteTheNewHoldersKey) {
    auto s1 = createSession(*client, 2);
    auto s2 = createSession(*client, 10);
    auto stale = Mutex::create(*client, s1, lockName());
    ASSERT_TRUE(lockAsync(*stale).get().ok());
    s1->setPaused(true);
    ASSERT_TRUE(eventually([&] { return stale->state() == Mutex::State::Lost; }, 6s));
    ASSERT_TRUE(eventually([&] { return queueLength() == 0; }, 3s));
    auto fresh = Mutex::create(*client, s2, lockName());
    ASSERT_TRUE(lockAsync(*fresh).get().ok());

    auto unlocked = unlockNow(*stale);
    ASSERT_TRUE(unlocked) << unlocked.error().message;
    EXPECT_FALSE(unlocked.value());
    auto keys = keysUnder(lockName() + "/");
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_EQ(keys[0], fresh->key());
}

TEST_F(MutexIntegrationTest, TwentyContendersFiftyRoundsNeverOverlapAndTokensRise) {
    constexpr int contenders = 20;
    constexpr int rounds = 50;
    struct Hold {
        std::chrono::steady_clock::time_point from, to;
        int64_t token;
        int who;
    };
    std::mutex recordMutex;
    std::vector<Hold> holds;
    std::atomic<int> inside{0};
    std::atomic<int> maxInside{0};

    std::vector<std::thread> threads;
    for (int c = 0; c < contenders; ++c) {
        threads.emplace_back([&, c] {
            auto own = makeClient();
            auto session = createSession(*own, 10);
            ASSERT_TRUE(session);
            auto mutex = Mutex::create(*own, session, lockName());
            for (int r = 0; r < rounds; ++r) {
                auto locked = lockAsync(*mutex).get();
                ASSERT_TRUE(locked.ok()) << locked.message;
                const auto from = std::chrono::steady_clock::now();
                maxInside = std::max(maxInside.load(), ++inside);
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                --inside;
                const auto to = std::chrono::steady_clock::now();
                {
                    std::lock_guard lock(recordMutex);
                    holds.push_back({from, to, mutex->fencingToken(), c});
                }
                auto unlocked = unlockNow(*mutex);
                ASSERT_TRUE(unlocked && unlocked.value());
            }
            std::promise<Error> closed;
            session->close([&](const Error& e) { closed.set_value(e); });
            EXPECT_TRUE(closed.get_future().get().ok());
        });
    }
    for (auto& t : threads)
        t.join();

    ASSERT_EQ(holds.size(), std::size_t(contenders * rounds));
    EXPECT_EQ(maxInside.load(), 1);
    std::sort(holds.begin(), holds.end(), [](auto& a, auto& b) { return a.from < b.from; });
    for (std::size_t i = 1; i < holds.size(); ++i) {
        EXPECT_LE(holds[i - 1].to, holds[i].from)
            << "holders " << holds[i - 1].who << " and " << holds[i].who << " overlapped";
        EXPECT_LT(holds[i - 1].token, holds[i].token) << "fencing tokens must rise strictly";
    }
    EXPECT_EQ(queueLength(), 0u);
}

TEST_F(MutexIntegrationTest, ServerSideLockQueuesWithOurMutex) {
    auto s1 = createSession(*client, 10);
    auto s2 = createSession(*client, 10);
    auto ours = Mutex::create(*client, s1, lockName());
    ASSERT_TRUE(lockAsync(*ours).get().ok());
    auto server = ServerLock::create(*client, s2, lockName());
    std::promise<Error> serverLocked;
    server->lock(10s, [&](const Error& e) { serverLocked.set_value(e); });
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    auto f = serverLocked.get_future();
    EXPECT_EQ(f.wait_for(300ms), std::future_status::timeout) << "v3lock ignored our holder";
    ASSERT_TRUE(unlockNow(*ours).value());
    ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(f.get().ok());
    EXPECT_EQ(server->key(), lockName() + "/" + leaseHex(s2->leaseId()));
    EXPECT_GT(server->fencingToken(), ours->fencingToken());

    // Now ours waits behind the server-side holder.
    auto waiting = lockAsync(*ours);
    ASSERT_TRUE(eventually([&] { return ours->state() == Mutex::State::Waiting; }));
    std::promise<Error> unlocked;
    server->unlock([&](const Error& e) { unlocked.set_value(e); });
    EXPECT_TRUE(unlocked.get_future().get().ok());
    ASSERT_EQ(waiting.wait_for(5s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    ASSERT_TRUE(unlockNow(*ours).value());
}

} // namespace
