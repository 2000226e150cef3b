// momentAt: the moment of a recording that a time chosen on the replay's timeline goes to.
#include "app/core/recorded_history.h"

#include <gtest/gtest.h>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);

std::vector<RecordedMoment> momentsAt(std::initializer_list<std::chrono::seconds> times) {
    std::vector<RecordedMoment> moments;
    for (const auto after : times) {
        RecordedMoment moment;
        moment.at = t0 + after;
        moments.push_back(moment);
    }
    return moments;
}

} // namespace

TEST(RecordedMomentsTest, ATimeGoesToTheLastMomentAtOrBeforeIt) {
    const auto moments = momentsAt({1s, 2s, 2s, 3s, 4s, 4s, 5s});
    EXPECT_EQ(momentAt(moments, t0 + 1s), 0u);
    EXPECT_EQ(momentAt(moments, t0 + 2s), 2u); // the last of two at once
    EXPECT_EQ(momentAt(moments, t0 + 3500ms), 3u);
    EXPECT_EQ(momentAt(moments, t0 + 4500ms), 5u);
    EXPECT_EQ(momentAt(moments, t0 + 60s), 6u);
    EXPECT_EQ(momentAt(moments, t0), 0u); // before the first: the first
    EXPECT_EQ(momentAt({}, t0), std::nullopt);
}
