// nameOwnDepartures: plain values in, plain values out, no server.
#include "app/core/own_departures.h"

#include <gtest/gtest.h>

using namespace lockscope;
using Kind = etcd::LockEventKind;

namespace {

const std::string lockName = "/locks/job";
const std::string ourKey = "/locks/job/694d";

OwnLock own(OwnLock::State state, bool paused = false) {
    OwnLock lock;
    lock.state = state;
    lock.lock = lockName;
    lock.key = QByteArray::fromStdString(ourKey);
    lock.paused = paused;
    return lock;
}

etcd::LockEvent event(Kind kind, const std::string& lock, const std::string& key) {
    etcd::LockEvent seen{};
    seen.kind = kind;
    seen.lock = lock;
    seen.key = key;
    return seen;
}

// The kind `seen` is named as when our lock stands as `lock`.
Kind named(Kind seen, const OwnLock& lock, const std::string& key = ourKey) {
    std::vector<etcd::LockEvent> events{event(seen, lockName, key)};
    nameOwnDepartures(events, {{QByteArray::fromStdString(lockName), lock}});
    return events.front().kind;
}

} // namespace

TEST(OwnDeparturesTest, OurKeyDeletedWhileWeHoldItWasTakenFromUs) {
    EXPECT_EQ(named(Kind::Released, own(OwnLock::State::Held)), Kind::ForceReleased);
    EXPECT_EQ(named(Kind::Cancelled, own(OwnLock::State::Waiting)), Kind::ForceReleased);
    EXPECT_EQ(named(Kind::Released, own(OwnLock::State::Lost)), Kind::ForceReleased);
}

// A re-read after a partition finds our lost key gone: an expiry as likely as a force release,
// so neither is claimed: it is lost.
TEST(OwnDeparturesTest, OurKeyFoundGoneByAReReadIsNotSaidTakenFromUs) {
    std::vector<etcd::LockEvent> events{event(Kind::Released, lockName, ourKey)};
    events.front().recovered = true;
    nameOwnDepartures(events, {{QByteArray::fromStdString(lockName), own(OwnLock::State::Lost)}});
    EXPECT_EQ(events.front().kind, Kind::Lost);
}

TEST(OwnDeparturesTest, OurPausedKeyDeletedExpired) {
    EXPECT_EQ(named(Kind::Released, own(OwnLock::State::Held, true)), Kind::Expired);
}

TEST(OwnDeparturesTest, WhatWeReleasedIsAReleaseEvenWhenTheLeaseLookupSawItGoneFirst) {
    EXPECT_EQ(named(Kind::Expired, own(OwnLock::State::Releasing)), Kind::Released);
    EXPECT_EQ(named(Kind::Expired, own(OwnLock::State::Released)), Kind::Released);
    EXPECT_EQ(named(Kind::Released, own(OwnLock::State::Releasing)), Kind::Released);
    EXPECT_EQ(named(Kind::Cancelled, own(OwnLock::State::Cancelled)), Kind::Cancelled);
}

TEST(OwnDeparturesTest, AnExpiryWeDidNotAskForStaysOne) {
    EXPECT_EQ(named(Kind::Expired, own(OwnLock::State::Held)), Kind::Expired);
    EXPECT_EQ(named(Kind::Expired, own(OwnLock::State::Lost)), Kind::Expired);
}

TEST(OwnDeparturesTest, OtherKeysAndOtherEventsAreLeftAlone) {
    EXPECT_EQ(named(Kind::Released, own(OwnLock::State::Held), "/locks/job/7f01"), Kind::Released);
    EXPECT_EQ(named(Kind::Expired, own(OwnLock::State::Releasing), "/locks/job/7f01"),
              Kind::Expired);
    EXPECT_EQ(named(Kind::Acquired, own(OwnLock::State::Held)), Kind::Acquired);
    std::vector<etcd::LockEvent> events{event(Kind::Released, "/locks/other", ourKey)};
    nameOwnDepartures(events, {{QByteArray::fromStdString(lockName), own(OwnLock::State::Held)}});
    EXPECT_EQ(events.front().kind, Kind::Released);
}

// An only-if-free attempt that found the lock held deletes its own waiting key: a waiter that
// left, whose cause is our own cleanup, whether the attempt's answer came first or the deletion.
TEST(OwnDeparturesTest, OurTryThatFoundTheLockHeldCleanedUpItsOwnKey) {
    for (OwnLock::State state : {OwnLock::State::Waiting, OwnLock::State::NotAcquired}) {
        OwnLock tried = own(state);
        tried.tryOnly = true;
        std::vector<etcd::LockEvent> events{event(Kind::Cancelled, lockName, ourKey)};
        const auto causes =
            nameOwnDepartures(events, {{QByteArray::fromStdString(lockName), tried}});
        EXPECT_EQ(events.front().kind, Kind::Cancelled);
        ASSERT_EQ(causes.size(), 1u);
        EXPECT_EQ(causes.front(), EventCause::OwnCleanup);
    }
}

// A try that got the lock and then had it taken is a force release like any other.
TEST(OwnDeparturesTest, OurTryThatHeldAndWasTakenFromIsAForceRelease) {
    OwnLock tried = own(OwnLock::State::Held);
    tried.tryOnly = true;
    std::vector<etcd::LockEvent> events{event(Kind::Released, lockName, ourKey),
                                        event(Kind::Acquired, lockName, "/locks/job/7f01")};
    const auto causes = nameOwnDepartures(events, {{QByteArray::fromStdString(lockName), tried}});
    EXPECT_EQ(causes, (std::vector{EventCause::ForceReleased, EventCause::Acquired}));
}
