#include "app/ctl/signal_mailbox.h"
#include "app/ctl/signal_wait.h"

#include <chrono>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <thread>

namespace lockscope {
namespace {

using namespace std::chrono_literals;

// The waits below are an hour long: they end within the assertions' bound only if woken.
class SignalWaitTest : public ::testing::Test {
protected:
    // Before any thread of the test starts, as in lockscopectl.
    void SetUp() override { blockHoldSignals(); }
    static std::chrono::steady_clock::duration since(std::chrono::steady_clock::time_point at) {
        return std::chrono::steady_clock::now() - at;
    }
};

TEST_F(SignalWaitTest, AnotherThreadWakesTheWaitAndItSaysNoSignalCame) {
    const auto began = std::chrono::steady_clock::now();
    std::thread waker([main = ::pthread_self()] {
        std::this_thread::sleep_for(50ms);
        wakeSignalWait(main);
    });
    EXPECT_EQ(nextSignal(std::chrono::hours(1)), 0);
    EXPECT_LT(since(began), 30s);
    waker.join();
}

TEST_F(SignalWaitTest, AWaitedOutcomeFromTheClientsThreadEndsTheWaitAtOnce) {
    const auto began = std::chrono::steady_clock::now();
    std::thread client;
    bool interrupted = false;
    bool cancelled = false;
    const etcd::Error outcome = waitUnlessInterrupted(
        [&](ErrorCallback done) {
            client = std::thread([done] {
                std::this_thread::sleep_for(50ms);
                done(etcd::Error{etcd::ErrorCode::Cancelled, "done on the client's thread"});
            });
        },
        [&] { cancelled = true; }, interrupted);
    EXPECT_EQ(outcome.message, "done on the client's thread");
    EXPECT_FALSE(interrupted);
    EXPECT_FALSE(cancelled);
    EXPECT_LT(since(began), 30s);
    client.join();
}

TEST_F(SignalWaitTest, AValuePutInTheMailboxWakesItsReader) {
    const auto began = std::chrono::steady_clock::now();
    auto lost = std::make_shared<SignalMailbox<std::string>>(); // made on the reading thread
    EXPECT_FALSE(lost->read());
    std::thread client([lost] {
        std::this_thread::sleep_for(50ms);
        lost->put("lost on the client's thread");
    });
    EXPECT_EQ(nextSignal(std::chrono::hours(1)), 0);
    EXPECT_LT(since(began), 30s);
    client.join();
    EXPECT_EQ(lost->read(), "lost on the client's thread");
}

// SIGURG, our wake-up, is one anybody may send: it wakes the wait and ends nothing. (Sent to
// this thread: a signal sent to the process could go to a thread of the sanitizers.)
TEST_F(SignalWaitTest, AWakeUpFromOutsideIsNoTermination) {
    ASSERT_EQ(::pthread_kill(::pthread_self(), SIGURG), 0);
    EXPECT_EQ(nextSignal(std::chrono::hours(1)), 0);
    ASSERT_EQ(::pthread_kill(::pthread_self(), SIGTERM), 0);
    EXPECT_TRUE(isTermination(nextSignal(std::chrono::hours(1))));
}

} // namespace
} // namespace lockscope
