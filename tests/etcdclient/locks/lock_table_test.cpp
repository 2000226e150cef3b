#include "etcdclient/locks/lock_table.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace etcd;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::system_clock;
const Clock::time_point t0 = Clock::time_point(std::chrono::seconds(1'700'000'000));

mvccpb::KeyValue kv(const std::string& key, int64_t lease, int64_t createRev,
                    std::string value = "") {
    mvccpb::KeyValue k;
    k.set_key(key);
    k.set_lease(lease);
    k.set_create_revision(createRev);
    k.set_mod_revision(createRev);
    k.set_value(std::move(value));
    return k;
}

mvccpb::Event put(const mvccpb::KeyValue& k) {
    mvccpb::Event e;
    e.set_type(mvccpb::Event::PUT);
    *e.mutable_kv() = k;
    return e;
}

mvccpb::Event del(const std::string& key) {
    mvccpb::Event e;
    e.set_type(mvccpb::Event::DELETE);
    e.mutable_kv()->set_key(key);
    return e;
}

std::vector<std::string> keysOf(const LockTable& t, const std::string& name) {
    std::vector<std::string> out;
    auto it = t.locks().find(name);
    if (it != t.locks().end())
        for (const auto& k : it->second->keys)
            out.push_back(k.key);
    return out;
}

std::vector<LockEventKind> kinds(const std::vector<LockEvent>& events) {
    std::vector<LockEventKind> out;
    for (const auto& e : events)
        out.push_back(e.kind);
    return out;
}

TEST(LockTableTest, HolderIsTheLowestCreateRevisionAndTheQueueFollowsCreateOrder) {
    LockTable t;
    t.load({kv("/l/2", 2, 12), kv("/l/1", 1, 11), kv("/l/3", 3, 13)}, 13, t0);
    EXPECT_EQ(keysOf(t, "/l"), (std::vector<std::string>{"/l/1", "/l/2", "/l/3"}));
    EXPECT_EQ(t.locks().at("/l")->holder()->key, "/l/1");
    EXPECT_EQ(t.revision(), 13);
}

TEST(LockTableTest, FirstLoadIsStateNotEvents) {
    LockTable t;
    EXPECT_TRUE(t.load({kv("/l/1", 1, 11)}, 11, t0).empty());
    EXPECT_TRUE(t.loaded());
}

// A lock whose keys two pages share: the queue is in create order once both are in.
TEST(LockTableTest, AFirstLoadInPagesFormsTheQueuesAsOneLoadWould) {
    LockTable t;
    const auto first = t.loadPage({kv("/l-b/5", 5, 15), kv("/l/2", 2, 12)}, 20, t0, false);
    EXPECT_EQ(first, (std::pair<std::string, std::string>{"/l", "/l-b"}));
    // A key without a slash is a lock of its own, named by the key.
    EXPECT_EQ(LockTable().loadPage({kv("1", 9, 9), kv("/a/8", 8, 8)}, 20, t0, false),
              (std::pair<std::string, std::string>{"/a", "1"}));
    EXPECT_FALSE(t.loaded());
    EXPECT_EQ(t.locks().at("/l")->holder()->key, "/l/2");
    t.loadPage({kv("/l/1", 1, 11), kv("/m/3", 3, 13)}, 20, t0, true);
    EXPECT_TRUE(t.loaded());
    EXPECT_EQ(t.revision(), 20);
    EXPECT_EQ(keysOf(t, "/l"), (std::vector<std::string>{"/l/1", "/l/2"}));
    EXPECT_EQ(t.locks().at("/l")->holder()->key, "/l/1");
    EXPECT_TRUE(t.locks().at("/l")->keys[0].acquiredBeforeSeen);
    EXPECT_FALSE(t.locks().at("/l")->keys[1].acquiredAt); // it held only until /l/0 came in
    EXPECT_EQ(t.locks().size(), 3u);
}

TEST(LockTableTest, CountsTheKeysWaitingBehindTheirHolders) {
    LockTable t;
    t.load({kv("/a/1", 1, 11), kv("/a/2", 2, 12), kv("/a/3", 3, 13), kv("/b/4", 4, 14)}, 14, t0);
    EXPECT_EQ(t.waiting(), 2u);
    t.apply(del("/a/1"), 15, t0); // the next holds: one waits fewer
    EXPECT_EQ(t.waiting(), 1u);
    t.apply(del("/b/4"), 16, t0); // a lock without waiters goes
    t.apply(put(kv("/c/5", 5, 17)), 17, t0);
    t.apply(put(kv("/c/6", 6, 18)), 18, t0);
    EXPECT_EQ(t.waiting(), 2u);
    // RWMutex readers share the lock: none of them waits.
    t.apply(put(kv("/rw/read/1700000000000000001", 7, 19)), 19, t0);
    t.apply(put(kv("/rw/read/1700000000000000002", 8, 20)), 20, t0);
    EXPECT_EQ(t.waiting(), 2u);
    t.apply(put(kv("/rw/write/1700000000000000003", 9, 21)), 21, t0);
    EXPECT_EQ(t.waiting(), 3u);
}

TEST(LockTableTest, KeysOfTheFirstLoadAndOfAGapAreMarkedAsSeenInProgress) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12)}, 12, t0);
    for (const auto& k : t.locks().at("/l")->keys)
        EXPECT_TRUE(k.enqueuedBeforeSeen) << k.key;
    EXPECT_TRUE(t.locks().at("/l")->keys[0].acquiredBeforeSeen);
    t.apply(put(kv("/l/3", 3, 13)), 13, t0 + 1s);
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12), kv("/l/3", 3, 13), kv("/l/4", 4, 14)}, 14,
           t0 + 2s); // a re-list after a gap: /l/4 arrived during it, at a time nobody saw
    EXPECT_FALSE(t.locks().at("/l")->keys[2].enqueuedBeforeSeen); // seen created by the watch
    EXPECT_TRUE(t.locks().at("/l")->keys[3].enqueuedBeforeSeen);
}

TEST(LockTableTest, EventsCarryTheKeysCreateRevisionTheHoldersFencingToken) {
    LockTable t;
    t.load({kv("/l/1", 1, 11)}, 11, t0);
    t.apply(put(kv("/l/2", 2, 12)), 12, t0);
    const auto events = t.apply(del("/l/1"), 13, t0 + 1s);
    ASSERT_EQ(kinds(events), (std::vector{LockEventKind::Released, LockEventKind::Acquired}));
    EXPECT_EQ(events[0].createRevision, 11);
    EXPECT_EQ(events[1].createRevision, 12);
    EXPECT_EQ(events[1].revision, 13);
}

TEST(LockTableTest, HandoffReportsReleaseWithHoldTimeThenAcquireWithWaitTime) {
    LockTable t;
    t.load({}, 10, t0);
    auto e1 = t.apply(put(kv("/l/1", 1, 11)), 11, t0);
    EXPECT_EQ(kinds(e1), (std::vector{LockEventKind::Enqueued, LockEventKind::Acquired}));
    EXPECT_EQ(e1[1].waited, 0ms);
    auto e2 = t.apply(put(kv("/l/2", 2, 12)), 12, t0 + 100ms);
    EXPECT_EQ(kinds(e2), (std::vector{LockEventKind::Enqueued}));
    auto e3 = t.apply(del("/l/1"), 13, t0 + 500ms);
    ASSERT_EQ(kinds(e3), (std::vector{LockEventKind::Released, LockEventKind::Acquired}));
    EXPECT_EQ(e3[0].key, "/l/1");
    EXPECT_EQ(e3[0].held, 500ms);
    EXPECT_EQ(e3[0].revision, 13);
    EXPECT_EQ(e3[1].key, "/l/2");
    EXPECT_EQ(e3[1].waited, 400ms);
    EXPECT_EQ(t.locks().at("/l")->holder()->key, "/l/2");
}

// A lock held for minutes before LockScope looked must not show "held 3.8 s". etcd keeps no
// time of creation, so times of keys already there are lower bounds; watched ones are exact.
TEST(LockTableTest, TimesOfKeysThereBeforeTheFirstLoadAreLowerBoundsAndWatchedOnesExact) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12)}, 12, t0);
    const auto& before = t.locks().at("/l")->keys;
    EXPECT_TRUE(before[0].enqueuedBeforeSeen);
    EXPECT_TRUE(before[0].acquiredBeforeSeen);
    EXPECT_TRUE(before[1].enqueuedBeforeSeen);
    EXPECT_FALSE(before[1].acquiredAt);

    t.apply(put(kv("/l/3", 3, 13)), 13, t0 + 1s);
    EXPECT_FALSE(t.locks().at("/l")->keys[2].enqueuedBeforeSeen);

    // The holder from the load: held at least 2 s. The waiter from the load takes over: the
    // moment it acquired is seen, how long it waited is not.
    auto handoff = t.apply(del("/l/1"), 14, t0 + 2s);
    ASSERT_EQ(kinds(handoff), (std::vector{LockEventKind::Released, LockEventKind::Acquired}));
    EXPECT_EQ(handoff[0].held, 2s);
    EXPECT_TRUE(handoff[0].atLeast);
    EXPECT_EQ(handoff[1].waited, 2s);
    EXPECT_TRUE(handoff[1].atLeast);
    EXPECT_FALSE(t.locks().at("/l")->keys[0].acquiredBeforeSeen);

    // The watched holder's hold and the watched waiter's wait are exact.
    auto next = t.apply(del("/l/2"), 15, t0 + 5s);
    ASSERT_EQ(kinds(next), (std::vector{LockEventKind::Released, LockEventKind::Acquired}));
    EXPECT_EQ(next[0].held, 3s);
    EXPECT_FALSE(next[0].atLeast);
    EXPECT_EQ(next[1].waited, 4s);
    EXPECT_FALSE(next[1].atLeast);
}

TEST(LockTableTest, KeysAndHoldersNewInAReloadGapHaveLowerBoundTimes) {
    LockTable t;
    t.load({}, 10, t0);
    t.apply(put(kv("/l/1", 1, 11)), 11, t0);
    auto events = t.load({kv("/l/2", 2, 12)}, 13, t0 + 3s);
    ASSERT_EQ(kinds(events), (std::vector{LockEventKind::Released, LockEventKind::Enqueued,
                                          LockEventKind::Acquired}));
    EXPECT_FALSE(events[0].atLeast); // /l/1 was seen to acquire
    EXPECT_TRUE(events[2].atLeast);
    const LockKey& holder = t.locks().at("/l")->keys.front();
    EXPECT_TRUE(holder.enqueuedBeforeSeen);
    EXPECT_TRUE(holder.acquiredBeforeSeen);
}

TEST(LockTableTest, AWaiterLeavingIsCancelledWithoutAHolderChange) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12), kv("/l/3", 3, 13)}, 13, t0);
    auto e = t.apply(del("/l/2"), 14, t0 + 1s);
    ASSERT_EQ(kinds(e), (std::vector{LockEventKind::Cancelled}));
    EXPECT_FALSE(e[0].held.has_value());
    EXPECT_EQ(keysOf(t, "/l"), (std::vector<std::string>{"/l/1", "/l/3"}));
}

TEST(LockTableTest, DeletionOfAnExpiredLeasesKeyIsAnExpiry) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12)}, 12, t0);
    t.setLeaseExpired(1, true);
    auto e = t.apply(del("/l/1"), 13, t0 + 2s);
    ASSERT_EQ(kinds(e), (std::vector{LockEventKind::Expired, LockEventKind::Acquired}));
}

// The table must not keep every lease that ever expired: a lab that runs for days expires
// thousands.
TEST(LockTableTest, AnExpiredLeaseIsForgottenWithItsLastKey) {
    LockTable t;
    t.load({kv("/a/1", 1, 11), kv("/b/1", 1, 12), kv("/b/2", 2, 13)}, 13, t0);
    t.setLeaseExpired(1, true);
    auto e = t.apply(del("/a/1"), 14, t0 + 2s);
    ASSERT_EQ(kinds(e), (std::vector{LockEventKind::Expired}));
    e = t.apply(del("/b/1"), 15, t0 + 2s); // its other key still tells an expiry
    ASSERT_EQ(kinds(e), (std::vector{LockEventKind::Expired, LockEventKind::Acquired}));
    // No key of lease 1 is left: marking it expired is news again, so it was forgotten.
    EXPECT_TRUE(t.setLeaseExpired(1, true));
}

// A cancelled wait, a forced revoke, an expiry and a release are four different events.
TEST(LockTableTest, AnExpectedForceReleaseIsNeitherAReleaseNorAnExpiry) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12), kv("/m/1", 1, 13), kv("/n/x", 0, 14),
            kv("/n/3", 3, 15)},
           15, t0);
    t.expectForceRelease("/l/1", 1); // revoking lease 1 deletes /l/1 and /m/1
    auto holder = t.apply(del("/l/1"), 16, t0 + 1s);
    ASSERT_EQ(kinds(holder), (std::vector{LockEventKind::ForceReleased, LockEventKind::Acquired}));
    EXPECT_EQ(holder[0].held, 1s);
    EXPECT_EQ(kinds(t.apply(del("/m/1"), 16, t0 + 1s)),
              (std::vector{LockEventKind::ForceReleased}));
    t.expectForceRelease("/n/x", 0); // a key without a lease is deleted, that one only
    EXPECT_EQ(kinds(t.apply(del("/n/x"), 17, t0 + 2s)),
              (std::vector{LockEventKind::ForceReleased, LockEventKind::Acquired}));
    EXPECT_EQ(kinds(t.apply(del("/n/3"), 18, t0 + 3s)), (std::vector{LockEventKind::Released}));
    EXPECT_EQ(kinds(t.apply(del("/l/2"), 19, t0 + 3s)), (std::vector{LockEventKind::Released}));
}

TEST(LockTableTest, LastKeyGoneRemovesTheLock) {
    LockTable t;
    t.load({kv("/l/1", 1, 11)}, 11, t0);
    t.apply(del("/l/1"), 12, t0);
    EXPECT_TRUE(t.locks().empty());
    EXPECT_TRUE(t.apply(del("/nothing/here"), 13, t0).empty());
}

// A reader's copy (a window's LockMonitorState) shares the table's queues, and what the table
// does next never shows in it: a handoff, a proclaim, a lock gone, a key regrouped.
TEST(LockTableTest, AReadersCopyKeepsWhatItReadWhileTheTableGoesOn) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12), kv("/e/1", 1, 13, "a"), kv("/s", 3, 14)}, 14, t0);
    const LockQueues copy = t.locks();
    EXPECT_TRUE(copy.at("/l").sameAs(t.locks().at("/l"))); // a pointer, not the keys
    t.apply(del("/l/1"), 15, t0);
    auto proclaimed = kv("/e/1", 1, 13, "b");
    proclaimed.set_mod_revision(16);
    t.apply(put(proclaimed), 16, t0);
    t.apply(del("/s"), 17, t0);
    t.apply(put(kv("/s/694d", 0x694d, 18)), 18, t0); // "/s" becomes a queue
    EXPECT_EQ(keysOf(t, "/l"), std::vector<std::string>{"/l/2"});
    EXPECT_TRUE(t.locks().at("/l")->keys[0].acquiredAt.has_value());
    EXPECT_EQ(t.locks().at("/e")->holder()->value, "b");
    EXPECT_FALSE(t.locks().at("/s")->keyIsLock);
    ASSERT_EQ(copy.at("/l")->keys.size(), 2u);
    EXPECT_EQ(copy.at("/l")->holder()->key, "/l/1");
    EXPECT_FALSE(copy.at("/l")->keys[1].acquiredAt.has_value());
    EXPECT_EQ(copy.at("/e")->holder()->value, "a");
    EXPECT_EQ(copy.at("/e")->holder()->modRevision, 13);
    EXPECT_TRUE(copy.at("/s")->keyIsLock);
    EXPECT_EQ(copy.at("/s")->keys.at(0).key, "/s");
    EXPECT_FALSE(copy.at("/l").sameAs(t.locks().at("/l")));
    // A queue nobody copied since the table last changed it is changed in place: no copy.
    const LockQueue* unshared = &*t.locks().at("/l");
    t.apply(put(kv("/l/3", 3, 19)), 19, t0);
    EXPECT_EQ(&*t.locks().at("/l"), unshared);
    EXPECT_EQ(keysOf(t, "/l"), (std::vector<std::string>{"/l/2", "/l/3"}));
}

TEST(LockTableTest, KeysArrivingOutOfCreateOrderSortIntoPlace) {
    LockTable t;
    t.load({}, 10, t0);
    t.apply(put(kv("/l/b", 0xb, 20)), 20, t0);
    auto e = t.apply(put(kv("/l/a", 0xa, 15)), 21, t0);
    EXPECT_EQ(kinds(e), (std::vector{LockEventKind::Enqueued, LockEventKind::Acquired}));
    EXPECT_EQ(keysOf(t, "/l"), (std::vector<std::string>{"/l/a", "/l/b"}));
    EXPECT_FALSE(t.locks().at("/l")->keys[1].acquiredAt.has_value());
}

// Any client's proclaim is an event: the leader's key, its create revision, the put's revision.
TEST(LockTableTest, ElectionValueUpdatesKeepThePlaceAndAreProclaims) {
    LockTable t;
    t.load({kv("/e/1", 1, 11, "leader-a"), kv("/e/2", 2, 12, "b")}, 12, t0);
    auto updated = kv("/e/1", 1, 11, "leader-a2");
    updated.set_mod_revision(13);
    const auto events = t.apply(put(updated), 13, t0);
    ASSERT_EQ(kinds(events), std::vector{LockEventKind::Proclaimed});
    EXPECT_EQ(events[0].key, "/e/1");
    EXPECT_EQ(events[0].lock, "/e");
    EXPECT_EQ(events[0].revision, 13);
    EXPECT_EQ(events[0].createRevision, 11);
    EXPECT_EQ(events[0].recipe, QueueKind::Election);
    EXPECT_FALSE(events[0].recovered);
    EXPECT_STREQ(lockEventKindName(events[0].kind), "proclaimed");
    EXPECT_EQ(t.touched(), std::vector<std::string>{"/e"}); // a display must copy it again
    EXPECT_EQ(t.locks().at("/e")->holder()->value, "leader-a2");
    EXPECT_EQ(t.locks().at("/e")->holder()->modRevision, 13);
    // The same value put again (etcd's Proclaim of an unchanged proposal) says nothing new.
    updated.set_mod_revision(14);
    EXPECT_TRUE(t.apply(put(updated), 14, t0).empty());
    // A re-read after a gap that finds a new value reports it, recovered.
    auto relisted = kv("/e/1", 1, 11, "leader-a3");
    relisted.set_mod_revision(15);
    const auto recovered = t.load({relisted, kv("/e/2", 2, 12, "b")}, 15, t0);
    ASSERT_EQ(kinds(recovered), std::vector{LockEventKind::Proclaimed});
    EXPECT_TRUE(recovered[0].recovered);
}

// An `etcdctl elect` queue is an election, not a lock. Campaign puts the proposal; Proclaim puts
// it again (mod > create revision), even an empty one.
TEST(LockTableTest, AQueueWithValuesOrReputKeysIsAnElection) {
    LockTable t;
    t.load({kv("/m/1", 1, 11), kv("/m/2", 2, 12), kv("/e/3", 3, 13, "alice"), kv("/e/4", 4, 14)},
           14, t0);
    EXPECT_EQ(t.locks().at("/m")->kind(), QueueKind::Mutex);
    EXPECT_EQ(t.locks().at("/e")->kind(), QueueKind::Election);
    EXPECT_STREQ(queueKindName(QueueKind::Election), "election");
    EXPECT_STREQ(queueKindName(QueueKind::Mutex), "mutex");
    auto reput = kv("/m/1", 1, 11);
    reput.set_mod_revision(15);
    t.apply(put(reput), 15, t0);
    EXPECT_EQ(t.locks().at("/m")->kind(), QueueKind::Election);
}

TEST(LockTableTest, NestedNamesAreSeparateLocks) {
    LockTable t;
    t.load({kv("/a/1", 1, 11), kv("/a/b/2", 2, 12)}, 12, t0);
    EXPECT_EQ(keysOf(t, "/a"), (std::vector<std::string>{"/a/1"}));
    EXPECT_EQ(keysOf(t, "/a/b"), (std::vector<std::string>{"/a/b/2"}));
}

TEST(LockTableTest, TrailingSlashNameGivesADoubleSlashKey) {
    LockTable t;
    t.load({kv("/my-lock//694d", 0x694d, 11)}, 11, t0);
    EXPECT_EQ(keysOf(t, "/my-lock/"), (std::vector<std::string>{"/my-lock//694d"}));
    EXPECT_TRUE(t.anomalies().empty());
}

TEST(LockTableTest, BinaryAndUnicodeKeysAreKeptByteForByte) {
    const std::string binary("/bin\x00\xff/1", 8);
    const std::string unicode = "/schlöss-🔒/1";
    LockTable t;
    t.load({kv(binary, 1, 11), kv(unicode, 1, 12)}, 12, t0);
    EXPECT_EQ(keysOf(t, std::string("/bin\x00\xff", 6)), (std::vector<std::string>{binary}));
    EXPECT_EQ(keysOf(t, "/schlöss-🔒"), (std::vector<std::string>{unicode}));
}

TEST(LockTableTest, EachAnomalyIsReported) {
    LockTable t;
    t.load({kv("/l/7", 0, 11), kv("/l/abc", 0xdef, 12), kv("/l/not-hex", 5, 13),
            kv("/l/2a", 0x2a, 14)},
           14, t0);
    t.setLeaseExpired(0x2a, true);
    std::map<std::string, std::vector<AnomalyKind>> found;
    for (const auto& [name, anomalies] : t.anomalies())
        for (const auto& a : anomalies) {
            EXPECT_EQ(name, "/l");
            found[a.key].push_back(a.kind);
            EXPECT_FALSE(a.detail.empty());
        }
    EXPECT_EQ(found["/l/7"], (std::vector{AnomalyKind::NoLease}));
    EXPECT_EQ(found["/l/abc"], (std::vector{AnomalyKind::LeaseMismatch}));
    EXPECT_EQ(found["/l/not-hex"], (std::vector{AnomalyKind::NotALockKey}));
    EXPECT_EQ(found["/l/2a"], (std::vector{AnomalyKind::ExpiredLease}));
}

TEST(LockTableTest, ReloadAfterAGapReportsWhatChangedAsRecovered) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12), kv("/m/5", 5, 15)}, 15, t0);
    // During the gap: /l/1 released (so /l/2 holds), /l/3 queued, /m/5 gone, /m/6 came and holds.
    auto e = t.load({kv("/l/2", 2, 12), kv("/l/3", 3, 16), kv("/m/6", 6, 17)}, 20, t0 + 5s);
    for (const auto& ev : e) {
        EXPECT_TRUE(ev.recovered);
        EXPECT_EQ(ev.revision, 20);
    }
    std::vector<std::pair<LockEventKind, std::string>> got;
    for (const auto& ev : e)
        got.emplace_back(ev.kind, ev.key);
    const std::vector<std::pair<LockEventKind, std::string>> expected = {
        {LockEventKind::Released, "/l/1"}, {LockEventKind::Acquired, "/l/2"},
        {LockEventKind::Released, "/m/5"}, {LockEventKind::Enqueued, "/l/3"},
        {LockEventKind::Enqueued, "/m/6"}, {LockEventKind::Acquired, "/m/6"}};
    EXPECT_EQ(got, expected);
    EXPECT_EQ(keysOf(t, "/l"), (std::vector<std::string>{"/l/2", "/l/3"}));
}

TEST(LockTableTest, ReloadWithNothingChangedReportsNothing) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12)}, 12, t0);
    EXPECT_TRUE(t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12)}, 30, t0 + 1s).empty());
    EXPECT_EQ(t.revision(), 30);
}

TEST(LockTableTest, AKeyRecreatedDuringTheGapIsAReleaseAndANewEnqueue) {
    LockTable t;
    t.load({kv("/l/1", 1, 11), kv("/l/2", 2, 12)}, 12, t0);
    auto e = t.load({kv("/l/1", 1, 20), kv("/l/2", 2, 12)}, 21, t0 + 1s);
    std::vector<LockEventKind> expected = {LockEventKind::Released, LockEventKind::Acquired,
                                           LockEventKind::Enqueued};
    EXPECT_EQ(kinds(e), expected);
    EXPECT_EQ(keysOf(t, "/l"), (std::vector<std::string>{"/l/2", "/l/1"}));
}

TEST(LockTableTest, CountsEachLeasesKeysAndHoldersAsKeysComeAndGo) {
    using Use = LockTable::LeaseUse;
    LockTable t;
    // Lease 1 holds /a and waits for /b; lease 2 holds /b; lease 3 waits for /a; /c has none.
    t.load({kv("/a/1", 1, 11), kv("/b/2", 2, 12), kv("/b/1", 1, 13), kv("/a/3", 3, 14),
            kv("/c/x", 0, 15)},
           15, t0);
    const auto& uses = t.leaseUses();
    EXPECT_EQ(uses.size(), 3u); // lease 0 is no lease
    EXPECT_EQ(uses.at(1), (Use{2, 1}));
    EXPECT_EQ(uses.at(2), (Use{1, 1}));
    EXPECT_EQ(uses.at(3), (Use{1, 0}));
    t.apply(del("/a/1"), 16, t0); // lease 3 holds /a now
    EXPECT_EQ(uses.at(1), (Use{1, 0}));
    EXPECT_EQ(uses.at(3), (Use{1, 1}));
    t.apply(put(kv("/a/0", 1, 9)), 17, t0); // an older key of lease 1 arrives late: it holds
    EXPECT_EQ(uses.at(1), (Use{2, 1}));
    EXPECT_EQ(uses.at(3), (Use{1, 0}));
    // A key put again under another lease keeps its place; the counts move to the new lease.
    t.apply(put(kv("/a/0", 4, 9)), 18, t0);
    EXPECT_EQ(uses.at(1), (Use{1, 0}));
    EXPECT_EQ(uses.at(4), (Use{1, 1}));
    for (const char* key : {"/a/0", "/a/3", "/b/2", "/b/1", "/c/x"})
        t.apply(del(key), 18, t0);
    EXPECT_TRUE(uses.empty());
    // RWMutex readers share: each leading reader's lease holds.
    t.apply(put(kv("/rw/read/1700000000000000001", 7, 19)), 19, t0);
    t.apply(put(kv("/rw/read/1700000000000000002", 8, 20)), 20, t0);
    t.apply(put(kv("/rw/write/1700000000000000003", 7, 21)), 21, t0);
    EXPECT_EQ(uses.at(7), (Use{2, 1}));
    EXPECT_EQ(uses.at(8), (Use{1, 1}));
}

// RWMutex keys (etcd's contrib/recipes): <name>/read|write/<UnixNano>.
std::string rw(const char* mode, int n) {
    return std::string("/rw/") + mode + "/17955300665676" + std::to_string(10000 + n);
}

TEST(LockTableTest, RecipeKeysAreReadersAndWritersOfTheirLockName) {
    EXPECT_EQ(LockTable::modeOf(rw("read", 1)), KeyMode::Read);
    EXPECT_EQ(LockTable::modeOf(rw("write", 1)), KeyMode::Write);
    EXPECT_EQ(LockTable().lockNameOf(rw("read", 1)), "/rw");
    EXPECT_EQ(LockTable().lockNameOf("/a/b/write/1795530066567608963"), "/a/b");
    // A Go Mutex named ".../read" keeps its name: a lease id in hex is at most 16 digits.
    EXPECT_EQ(LockTable::modeOf("/m/read/694d"), KeyMode::Exclusive);
    LockTable t;
    t.load({kv("/m/read/1234567890123456", 0x1234567890123456, 11)}, 11, t0);
    EXPECT_EQ(keysOf(t, "/m/read"), (std::vector<std::string>{"/m/read/1234567890123456"}));
    EXPECT_EQ(LockTable::modeOf("/m/reads/1795530066567608963"), KeyMode::Exclusive);
    EXPECT_EQ(LockTable::modeOf("read/1795530066567608963"), KeyMode::Exclusive);
    EXPECT_EQ(LockTable::modeOf("/rw/read/17955300665676089x3"), KeyMode::Exclusive);
}

TEST(LockTableTest, LeadingReadersShareAndEachWaiterKnowsWhatItWaitsOn) {
    LockTable t;
    t.load({kv(rw("read", 1), 1, 11), kv(rw("read", 2), 2, 12), kv(rw("write", 3), 3, 13),
            kv(rw("read", 4), 4, 14), kv(rw("read", 5), 5, 15), kv(rw("write", 6), 6, 16)},
           16, t0);
    const LockQueue& q = *t.locks().at("/rw");
    EXPECT_EQ(t.locks().size(), 1u);
    EXPECT_EQ(q.kind(), QueueKind::RwMutex);
    EXPECT_STREQ(queueKindName(q.kind()), "rwmutex");
    EXPECT_EQ(q.holderCount(), 2u);
    EXPECT_TRUE(q.keys[0].acquiredAt && q.keys[1].acquiredAt);
    EXPECT_FALSE(q.keys[2].acquiredAt);
    EXPECT_EQ(q.waitsOn(0), nullptr);
    EXPECT_EQ(q.waitsOn(1), nullptr);
    EXPECT_EQ(q.waitsOn(2)->key, rw("read", 2));  // a writer: the key just before it
    EXPECT_EQ(q.waitsOn(3)->key, rw("write", 3)); // a reader: the nearest older writer
    EXPECT_EQ(q.waitsOn(4)->key, rw("write", 3));
    EXPECT_EQ(q.waitsOn(5)->key, rw("read", 5));
    EXPECT_TRUE(t.anomalies().empty()) << t.anomalies().begin()->second.front().detail;
}

TEST(LockTableTest, TheWriterHoldsOnceTheReadersGoThenTheReadersBehindItShare) {
    LockTable t;
    t.load({kv(rw("read", 1), 1, 11), kv(rw("write", 2), 2, 12), kv(rw("read", 3), 3, 13),
            kv(rw("read", 4), 4, 14)},
           14, t0);
    auto events = t.apply(del(rw("read", 1)), 15, t0 + 1s);
    EXPECT_EQ(kinds(events),
              (std::vector<LockEventKind>{LockEventKind::Released, LockEventKind::Acquired}));
    EXPECT_EQ(events[1].key, rw("write", 2));
    EXPECT_EQ(t.locks().at("/rw")->holderCount(), 1u);

    events = t.apply(del(rw("write", 2)), 16, t0 + 2s);
    EXPECT_EQ(kinds(events),
              (std::vector<LockEventKind>{LockEventKind::Released, LockEventKind::Acquired,
                                          LockEventKind::Acquired}));
    EXPECT_EQ(events[1].key, rw("read", 3));
    EXPECT_EQ(events[2].key, rw("read", 4));
    EXPECT_EQ(events[2].waited, 2s);
    EXPECT_EQ(t.locks().at("/rw")->holderCount(), 2u);

    // A reader arriving while readers hold shares at once.
    events = t.apply(put(kv(rw("read", 5), 5, 17)), 17, t0 + 3s);
    EXPECT_EQ(kinds(events),
              (std::vector<LockEventKind>{LockEventKind::Enqueued, LockEventKind::Acquired}));
}

TEST(LockTableTest, AWaitingWriterThatGivesUpLetsTheReadersBehindItIn) {
    LockTable t;
    t.load({kv(rw("read", 1), 1, 11), kv(rw("write", 2), 2, 12), kv(rw("read", 3), 3, 13)}, 13, t0);
    const auto events = t.apply(del(rw("write", 2)), 14, t0 + 1s);
    EXPECT_EQ(kinds(events),
              (std::vector<LockEventKind>{LockEventKind::Cancelled, LockEventKind::Acquired}));
    EXPECT_EQ(events[1].key, rw("read", 3));
    EXPECT_EQ(t.locks().at("/rw")->holderCount(), 2u);
}

TEST(LockTableTest, AnOlderWriterArrivingLateTakesTheReadersHoldBack) {
    LockTable t;
    t.load({}, 10, t0);
    t.apply(put(kv(rw("read", 2), 2, 12)), 12, t0);
    t.apply(put(kv(rw("read", 3), 3, 13)), 13, t0);
    const auto events = t.apply(put(kv(rw("write", 1), 1, 11)), 13, t0 + 1s);
    EXPECT_EQ(kinds(events),
              (std::vector<LockEventKind>{LockEventKind::Enqueued, LockEventKind::Acquired}));
    const LockQueue& q = *t.locks().at("/rw");
    EXPECT_EQ(q.holderCount(), 1u);
    EXPECT_FALSE(q.keys[1].acquiredAt);
    EXPECT_FALSE(q.keys[2].acquiredAt);
}

// python-etcd3 (0.12.0): Lock(name) is one key, /locks/<name>, on a lease, valued a uuid.
const std::string uuidA("\x1d\xf0\xd8\xa6\xeaI\x11\xf0\x8c\x1b\x02B\xac\x11\x00\x02", 16);

TEST(LockTableTest, SingleKeyLocksAreLocksOfTheirOwnWithNoQueueAndNoWait) {
    LockTable t;
    t.load({kv("/locks/job", 0x6a01, 11, uuidA), kv("/locks/report", 0x6a02, 12, uuidA)}, 12, t0);
    ASSERT_EQ(t.locks().size(), 2u); // never one lock with report waiting behind job
    for (const char* name : {"/locks/job", "/locks/report"}) {
        const LockQueue& q = *t.locks().at(name);
        EXPECT_EQ(q.kind(), QueueKind::SingleKey) << name;
        EXPECT_FALSE(q.waitersVisible());
        EXPECT_EQ(q.holderCount(), 1u);
    }
    EXPECT_EQ(t.waiting(), 0u);
    EXPECT_TRUE(t.anomalies().empty());
    EXPECT_STREQ(queueKindName(QueueKind::SingleKey), "single-key");

    // A handoff: the holder deletes its key, the next puts it with its own lease. The wait of
    // the next holder happened in a watch etcd does not show: unknown, not 0.
    auto released = t.apply(del("/locks/job"), 13, t0 + 1s);
    ASSERT_EQ(kinds(released), (std::vector{LockEventKind::Released}));
    EXPECT_EQ(released[0].lock, "/locks/job");
    EXPECT_EQ(released[0].recipe, QueueKind::SingleKey);
    EXPECT_EQ(t.touched(), (std::vector<std::string>{"/locks/job"}));
    auto acquired = t.apply(put(kv("/locks/job", 0x6a03, 14, uuidA)), 14, t0 + 3s);
    ASSERT_EQ(kinds(acquired), (std::vector{LockEventKind::Acquired}));
    EXPECT_EQ(acquired[0].lock, "/locks/job");
    EXPECT_FALSE(acquired[0].waited.has_value());
    EXPECT_EQ(t.touched(), (std::vector<std::string>{"/locks/job"}));
    EXPECT_EQ(t.locks().at("/locks/report")->holder()->lease, 0x6a02);
}

// node etcd3 (1.1.2): lock(name) puts the key <name> itself, empty, on a lease.
TEST(LockTableTest, NodeLocksNamedLikeNestedPathsAreSeparateLocks) {
    LockTable t;
    t.load({kv("/jobs/nightly", 0x7001, 11), kv("/jobs/hourly", 0x7002, 12)}, 12, t0);
    EXPECT_EQ(keysOf(t, "/jobs/nightly"), (std::vector<std::string>{"/jobs/nightly"}));
    EXPECT_EQ(keysOf(t, "/jobs/hourly"), (std::vector<std::string>{"/jobs/hourly"}));
    EXPECT_EQ(t.locks().count("/jobs"), 0u);
}

// node etcd3's elections: election/<name>/<lease id in decimal>, valued the proposal.
TEST(LockTableTest, DecimalSuffixedElectionsAreQueuesWithoutAnomalies) {
    const int64_t a = 7587868339417853465, b = 7587868339417853470;
    LockTable t;
    t.load({kv("election/sched/" + std::to_string(a), a, 11, "host-a"),
            kv("election/sched/" + std::to_string(b), b, 12, "host-b")},
           12, t0);
    ASSERT_EQ(t.locks().size(), 1u);
    const LockQueue& q = *t.locks().at("election/sched");
    EXPECT_EQ(q.kind(), QueueKind::Election);
    EXPECT_EQ(q.holder()->value, "host-a");
    EXPECT_EQ(q.keys.size(), 2u);
    EXPECT_TRUE(t.anomalies().empty());
    EXPECT_TRUE(LockTable::namesItsLease("election/sched/" + std::to_string(a), a));
    EXPECT_FALSE(LockTable::namesItsLease("election/sched/" + std::to_string(a), b));
}

// A key of no recipe beside a Go queue is in that queue (Go's waiters range over <name>/ and
// wait on it); alone, it is a lock of its own. The grouping follows the keys as they come.
TEST(LockTableTest, AKeyBesideAGoQueueJoinsItAndLeavesWhenTheQueueGoes) {
    LockTable t;
    t.load({kv("/locks/job", 0x6a01, 11, uuidA)}, 11, t0);
    auto joined = t.apply(put(kv("/locks/694d", 0x694d, 12)), 12, t0 + 1s);
    EXPECT_EQ(kinds(joined), (std::vector{LockEventKind::Enqueued}));
    EXPECT_EQ(keysOf(t, "/locks"), (std::vector<std::string>{"/locks/job", "/locks/694d"}));
    EXPECT_EQ(t.locks().count("/locks/job"), 0u);
    EXPECT_EQ(t.waiting(), 1u);
    const auto anomalies = t.anomalies();
    ASSERT_EQ(anomalies.at("/locks").size(), 1u);
    EXPECT_EQ(anomalies.at("/locks")[0].kind, AnomalyKind::NotALockKey);
    auto touched = t.touched();
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    EXPECT_EQ(touched, (std::vector<std::string>{"/locks", "/locks/job"}));

    auto left = t.apply(del("/locks/694d"), 13, t0 + 2s);
    EXPECT_EQ(kinds(left), (std::vector{LockEventKind::Cancelled}));
    EXPECT_EQ(keysOf(t, "/locks/job"), (std::vector<std::string>{"/locks/job"}));
    EXPECT_EQ(t.locks().count("/locks"), 0u);
    EXPECT_EQ(t.waiting(), 0u);
    EXPECT_TRUE(t.locks().at("/locks/job")->keys[0].acquiredAt.has_value());
}

// python's /locks/x and etcdctl's lock /locks/x (keys /locks/x/<hex>) are two locks of one
// name: the single key is listed with a NUL after it.
TEST(LockTableTest, ASingleKeyLockNamedLikeAQueueIsListedApart) {
    LockTable t;
    t.load({kv("/locks/x", 0x6a01, 11, uuidA), kv("/locks/x/694d", 0x694d, 12)}, 12, t0);
    EXPECT_EQ(keysOf(t, "/locks/x"), (std::vector<std::string>{"/locks/x/694d"}));
    const std::string apart("/locks/x\0", 9);
    EXPECT_EQ(keysOf(t, apart), (std::vector<std::string>{"/locks/x"}));
    EXPECT_EQ(t.locks().at(apart)->kind(), QueueKind::SingleKey);
    t.apply(del("/locks/x/694d"), 13, t0);
    EXPECT_EQ(keysOf(t, "/locks/x"), (std::vector<std::string>{"/locks/x"}));
    EXPECT_EQ(t.locks().size(), 1u);
}

TEST(LockTableTest, AKeyWithoutLeaseOrRecipeIsALockOfItsOwnAndAnAnomaly) {
    LockTable t;
    t.load({kv("/config/flag", 0, 11, "on")}, 11, t0);
    EXPECT_EQ(t.locks().at("/config/flag")->kind(), QueueKind::Unknown);
    EXPECT_EQ(t.anomalies().at("/config/flag").at(0).kind, AnomalyKind::NotALockKey);
}

// A key put again under its own lease starts naming it: its parent becomes a queue.
TEST(LockTableTest, AKeyPutAgainUnderTheLeaseItNamesMakesItsParentAQueue) {
    LockTable t;
    t.load({kv("/q/5", 4, 11), kv("/q/other", 9, 12)}, 12, t0);
    EXPECT_EQ(t.locks().size(), 2u);
    auto reput = kv("/q/5", 5, 11);
    reput.set_mod_revision(13);
    t.apply(put(reput), 13, t0);
    EXPECT_EQ(keysOf(t, "/q"), (std::vector<std::string>{"/q/5", "/q/other"}));
    EXPECT_EQ(t.touched().front(), "/q/5");
}

// Where detection cannot decide, the operator names the recipe for the whole prefix.
TEST(LockTableTest, AnOverriddenRecipeGroupsEveryKeyItsWay) {
    const std::vector<mvccpb::KeyValue> keys = {kv("/locks/job", 0x6a01, 11, uuidA),
                                                kv("/locks/694d", 0x694d, 12)};
    LockTable single(RecipeOverride::SingleKey);
    single.load(keys, 12, t0);
    EXPECT_EQ(single.locks().size(), 2u);
    EXPECT_EQ(single.locks().at("/locks/694d")->kind(), QueueKind::SingleKey);
    LockTable mutex(RecipeOverride::Mutex);
    mutex.load({kv("/locks/job", 0x6a01, 11, uuidA), kv("/locks/report", 0x6a02, 12)}, 12, t0);
    EXPECT_EQ(keysOf(mutex, "/locks"), (std::vector<std::string>{"/locks/job", "/locks/report"}));
    EXPECT_EQ(mutex.locks().at("/locks")->kind(), QueueKind::Mutex);
    EXPECT_EQ(parseRecipeOverride("single-key"), RecipeOverride::SingleKey);
    EXPECT_EQ(parseRecipeOverride("auto"), RecipeOverride::Auto);
    EXPECT_FALSE(parseRecipeOverride("python").has_value());
}

} // namespace

// A key seen from its start keeps its times in the next table (a prefix watched again); a key
// deleted and created again in between is a new key and starts over as "at least".
TEST(LockTableTest, SeenTimesCarryIntoTheNextTableForTheSameKeys) {
    const auto t1 = t0 + std::chrono::seconds(5);
    const auto t2 = t0 + std::chrono::seconds(60);
    LockTable first;
    first.load({}, 10, t0);
    first.apply(put(kv("/l/a", 0xa, 11)), 11, t1);
    first.apply(put(kv("/l/b", 0xb, 12)), 12, t1);
    auto seen = std::make_shared<SeenTimesByKey>();
    addSeenTimes(first.locks(), *seen, 100);
    ASSERT_EQ(seen->size(), 2u);

    LockTable next(RecipeOverride::Auto, seen);
    next.load({kv("/l/a", 0xa, 11), kv("/l/b", 0xb, 20)}, 20, t2);
    const LockKey& a = next.locks().at("/l")->keys[0];
    EXPECT_EQ(a.enqueuedAt, t1);
    EXPECT_EQ(a.acquiredAt, t1);
    EXPECT_FALSE(a.enqueuedBeforeSeen);
    EXPECT_FALSE(a.acquiredBeforeSeen);
    const LockKey& b = next.locks().at("/l")->keys[1]; // created again: not the key seen
    EXPECT_EQ(b.enqueuedAt, t2);
    EXPECT_TRUE(b.enqueuedBeforeSeen);
    // Its release says how long it held, exactly.
    const auto released = next.apply(del("/l/a"), 21, t2);
    ASSERT_FALSE(released.empty());
    EXPECT_EQ(released[0].kind, LockEventKind::Released);
    EXPECT_EQ(released[0].held, std::chrono::milliseconds(55000));
    EXPECT_FALSE(released[0].atLeast);

    // At most `most` keys are kept.
    SeenTimesByKey few;
    addSeenTimes(first.locks(), few, 1);
    EXPECT_EQ(few.size(), 1u);
}
