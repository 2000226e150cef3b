// The waiters' retry policy, with the random source pinned so each delay is known.
#include "app/core/retry_backoff.h"

#include <gtest/gtest.h>

using namespace std::chrono_literals;
using lockscope::RetryBackoff;

namespace {

TEST(RetryBackoffTest, CeilingDoublesFromTheFirstDelayUpToTheCap) {
    RetryBackoff backoff([] { return 0.999999; }, 100ms, 5000ms);
    std::vector<int64_t> delays;
    for (int i = 0; i < 9; ++i)
        delays.push_back(backoff.next().count());
    EXPECT_EQ(delays, (std::vector<int64_t>{99, 199, 399, 799, 1599, 3199, 4999, 4999, 4999}));
    EXPECT_EQ(backoff.attempts(), 9);
}

TEST(RetryBackoffTest, FullJitterScalesTheCeilingByTheRandomShare) {
    std::vector<double> shares = {0.0, 0.5, 0.25};
    std::size_t i = 0;
    RetryBackoff backoff([&] { return shares[i++]; }, 100ms, 5000ms);
    EXPECT_EQ(backoff.next(), 0ms);   // ceiling 100 ms
    EXPECT_EQ(backoff.next(), 100ms); // half of 200 ms
    EXPECT_EQ(backoff.next(), 100ms); // a quarter of 400 ms
}

TEST(RetryBackoffTest, ARandomSourceOutOfRangeCannotExceedTheCeiling) {
    RetryBackoff backoff([] { return 7.0; }, 100ms, 300ms);
    EXPECT_EQ(backoff.next(), 100ms);
    EXPECT_EQ(backoff.next(), 200ms);
    EXPECT_EQ(backoff.next(), 300ms);
    EXPECT_EQ(backoff.next(), 300ms);
}

TEST(RetryBackoffTest, ManyFailuresNeitherOverflowNorPassTheCap) {
    RetryBackoff backoff([] { return 0.999999; });
    std::chrono::milliseconds last{};
    for (int i = 0; i < 10000; ++i)
        last = backoff.next();
    EXPECT_EQ(last, 4999ms);
}

TEST(RetryBackoffTest, TheSystemRandomSourceStaysWithinTheCeiling) {
    RetryBackoff backoff;
    for (int i = 0; i < 200; ++i) {
        const auto delay = backoff.next();
        EXPECT_GE(delay, 0ms);
        EXPECT_LE(delay, RetryBackoff::defaultCap);
    }
}

TEST(RetryBackoffTest, LostSessionsAndOutagesAreRetriedRefusalsAndCancelsAreNot) {
    using etcd::ErrorCode;
    for (ErrorCode code : {ErrorCode::LockLost, ErrorCode::LeaseNotFound, ErrorCode::Unavailable,
                           ErrorCode::DeadlineExceeded})
        EXPECT_TRUE(RetryBackoff::worthRetrying({code, "x"})) << etcd::errorCodeName(code);
    for (ErrorCode code : {ErrorCode::Cancelled, ErrorCode::PermissionDenied, ErrorCode::AuthFailed,
                           ErrorCode::InvalidArgument})
        EXPECT_FALSE(RetryBackoff::worthRetrying({code, "x"})) << etcd::errorCodeName(code);
}

TEST(RetryBackoffTest, SecondsHaveOneDecimal) {
    EXPECT_EQ(RetryBackoff::seconds(1549ms), "1.5");
    EXPECT_EQ(RetryBackoff::seconds(0ms), "0.0");
    EXPECT_EQ(RetryBackoff::seconds(5000ms), "5.0");
}

} // namespace
