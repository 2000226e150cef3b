#include "etcdclient/locks/lock_change_log.h"

#include <gtest/gtest.h>

using etcd::LockChangeLog;
using Locks = std::set<std::string>;

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
    EXPECT_EQ(log.changedAfter(copied), Locks{});
    log.changed("/b");
    log.changed("/a");
    log.changed("/b");
    EXPECT_EQ(log.changedAfter(copied), (Locks{"/a", "/b"}));
    const uint64_t later = log.stamp();
    log.changed("/c");
    EXPECT_EQ(log.changedAfter(later), Locks{"/c"});
    EXPECT_EQ(log.changedAfter(log.stamp()), Locks{});
}

TEST(LockChangeLog, ACopyFromBeforeAReadOfEverythingCopiesEverything) {
    LockChangeLog log;
    log.changedAll();
    const uint64_t copied = log.stamp();
    log.changed("/a");
    log.changedAll(); // a re-list after compaction
    EXPECT_FALSE(log.changedAfter(copied));
    EXPECT_EQ(log.changedAfter(log.stamp()), Locks{});
    log.changed("/b");
    EXPECT_EQ(log.changedAfter(log.stamp() - 1), Locks{"/b"});
}

TEST(LockChangeLog, ACopyOlderThanWhatTheLogHoldsCopiesEverything) {
    LockChangeLog log(3);
    log.changedAll();
    const uint64_t copied = log.stamp();
    log.changed("/a");
    log.changed("/b");
    log.changed("/c");
    EXPECT_EQ(log.changedAfter(copied), (Locks{"/a", "/b", "/c"})); // exactly what it holds
    log.changed("/d");                                              // forgets "/a"
    EXPECT_FALSE(log.changedAfter(copied));
    EXPECT_EQ(log.changedAfter(copied + 1), (Locks{"/b", "/c", "/d"}));
}

TEST(LockChangeLog, AStampItNeverGaveCopiesEverything) {
    LockChangeLog log;
    log.changedAll();
    log.changed("/a");
    EXPECT_FALSE(log.changedAfter(log.stamp() + 5)); // another log's, further along
}
