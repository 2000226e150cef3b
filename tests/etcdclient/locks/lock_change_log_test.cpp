#include "etcdclient/locks/lock_change_log.h"

#include <gtest/gtest.h>

using etcd::LockChangeLog;
using etcd::LockNameRanges;
using Locks = std::set<std::string>;

namespace {
// The single locks named, when every range is one lock; nullopt when the log cannot tell.
std::optional<Locks> changedAfter(const LockChangeLog& log, uint64_t since) {
    const auto ranges = log.changedAfter(since);
    if (!ranges)
        return std::nullopt;
    Locks names;
    for (const auto& range : ranges->ranges()) {
        EXPECT_EQ(range.first, range.last);
        EXPECT_FALSE(range.toEnd);
        names.insert(range.first);
    }
    return names;
}
} // namespace

TEST(LockChangeLog, ACopyNotYetTakenCopiesEverything) {
    LockChangeLog log;
    EXPECT_EQ(log.stamp(), 0u);
    EXPECT_FALSE(log.changedAfter(0));
    log.changed("/a");
    EXPECT_FALSE(log.changedAfter(0));
}

TEST(LockChangeLog, NamesEachLockChangedSinceACopyOnce) {
    LockChangeLog log;
    log.changedAll(); // the first read of the locks
    const uint64_t copied = log.stamp();
    EXPECT_EQ(changedAfter(log, copied), Locks{});
    log.changed("/b");
    log.changed("/a");
    log.changed("/b");
    EXPECT_EQ(changedAfter(log, copied), (Locks{"/a", "/b"}));
    const uint64_t later = log.stamp();
    log.changed("/c");
    EXPECT_EQ(changedAfter(log, later), Locks{"/c"});
    EXPECT_EQ(changedAfter(log, log.stamp()), Locks{});
}

TEST(LockChangeLog, ACopyFromBeforeAReadOfEverythingCopiesEverything) {
    LockChangeLog log;
    log.changedAll();
    const uint64_t copied = log.stamp();
    log.changed("/a");
    log.changedAll(); // a re-list after compaction
    EXPECT_FALSE(log.changedAfter(copied));
    EXPECT_EQ(changedAfter(log, log.stamp()), Locks{});
    log.changed("/b");
    EXPECT_EQ(changedAfter(log, log.stamp() - 1), Locks{"/b"});
}

TEST(LockChangeLog, ACopyOlderThanWhatTheLogHoldsCopiesEverything) {
    LockChangeLog log(3);
    log.changedAll();
    const uint64_t copied = log.stamp();
    log.changed("/a");
    log.changed("/b");
    log.changed("/c");
    EXPECT_EQ(changedAfter(log, copied), (Locks{"/a", "/b", "/c"})); // exactly what it holds
    log.changed("/d");                                               // forgets "/a"
    EXPECT_FALSE(log.changedAfter(copied));
    EXPECT_EQ(changedAfter(log, copied + 1), (Locks{"/b", "/c", "/d"}));
}

TEST(LockChangeLog, AStampItNeverGaveCopiesEverything) {
    LockChangeLog log;
    log.changedAll();
    log.changed("/a");
    EXPECT_FALSE(log.changedAfter(log.stamp() + 5)); // another log's, further along
}

TEST(LockChangeLog, APageOfAListingIsOneRange) {
    LockChangeLog log(2);
    log.changedAll();
    const uint64_t copied = log.stamp();
    log.changed(LockNameRanges::Range{"/a", "/m", false});
    log.changed("/c"); // inside the page's range: nothing more to copy
    const auto changed = log.changedAfter(copied);
    ASSERT_TRUE(changed);
    EXPECT_EQ(changed->ranges(), (std::vector<LockNameRanges::Range>{{"/a", "/m", false}}));
}

TEST(LockChangeLog, ALockChangedAgainTakesNoMorePlace) {
    LockChangeLog log(4);
    log.changedAll();
    const uint64_t copied = log.stamp();
    for (int i = 0; i < 100000; ++i) { // a lab's hours of churn on two locks
        log.changed("/a");
        log.changed("/b");
    }
    EXPECT_EQ(log.size(), 2u);
    // Nothing was forgotten, so the first copy still needs only these two.
    EXPECT_EQ(changedAfter(log, copied), (Locks{"/a", "/b"}));
    EXPECT_EQ(changedAfter(log, log.stamp() - 1), Locks{"/b"});
}

TEST(LockChangeLog, ALockChangedAgainCountsFromItsLatestChange) {
    LockChangeLog log(2);
    log.changedAll();
    const uint64_t copied = log.stamp();
    log.changed("/a");
    log.changed("/b");
    const uint64_t afterB = log.stamp();
    log.changed("/a");
    EXPECT_EQ(changedAfter(log, afterB), Locks{"/a"});
    EXPECT_EQ(changedAfter(log, copied), (Locks{"/a", "/b"}));
    log.changed("/c"); // forgets "/b", the oldest change now
    EXPECT_FALSE(log.changedAfter(copied));
    EXPECT_EQ(changedAfter(log, afterB), (Locks{"/a", "/c"}));
    log.changed("/b"); // back, forgetting "/a"
    EXPECT_FALSE(log.changedAfter(afterB));
    EXPECT_EQ(changedAfter(log, log.stamp() - 1), Locks{"/b"});
    log.changed("/a"); // "/a" was forgotten: a new place, forgetting "/c"
    EXPECT_EQ(log.size(), 2u);
    EXPECT_EQ(changedAfter(log, log.stamp() - 2), (Locks{"/a", "/b"}));
}
