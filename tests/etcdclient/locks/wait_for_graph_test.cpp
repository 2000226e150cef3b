#include "etcdclient/locks/lock_table.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <gtest/gtest.h>

using namespace etcd;

namespace {

using Clock = std::chrono::system_clock;
const Clock::time_point t0 = Clock::time_point(std::chrono::seconds(1'700'000'000));

// A Go lock key: <name>/<lease in hex>, on that lease.
mvccpb::KeyValue goKey(const std::string& name, int64_t lease, int64_t createRev) {
    mvccpb::KeyValue k;
    char hex[20];
    std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(lease));
    k.set_key(name + "/" + hex);
    k.set_lease(lease);
    k.set_create_revision(createRev);
    k.set_mod_revision(createRev);
    return k;
}

mvccpb::KeyValue plainKey(const std::string& key, int64_t lease, int64_t createRev) {
    mvccpb::KeyValue k;
    k.set_key(key);
    k.set_lease(lease);
    k.set_create_revision(createRev);
    k.set_mod_revision(createRev);
    return k;
}

mvccpb::Event del(const std::string& key) {
    mvccpb::Event e;
    e.set_type(mvccpb::Event::DELETE);
    e.mutable_kv()->set_key(key);
    return e;
}

SessionId lease(int64_t id) {
    return SessionId{id, {}};
}

// Applies an event to the table and the lock changes it made to the graph, as a monitor does.
void apply(LockTable& table, WaitForGraph& graph, const mvccpb::Event& event, int64_t revision) {
    table.apply(event, revision, t0);
    graph.setLocks(table.touched(), table.locks());
}

TEST(WaitForGraphTest, TwoSessionsEachHoldingWhatTheOtherWaitsForAreADeadlock) {
    LockTable table; // A (lease 0xa) holds /d/1 and waits for /d/2; B (0xb) the other way round
    table.load({goKey("/d/1", 0xa, 10), goKey("/d/2", 0xb, 11), goKey("/d/2", 0xa, 12),
                goKey("/d/1", 0xb, 13)},
               13, t0);
    const WaitForGraph graph = WaitForGraph::of(table.locks());

    const auto deadlocks = graph.deadlocks();
    ASSERT_EQ(deadlocks.size(), 1u);
    EXPECT_EQ(deadlocks[0].sessions, (std::vector<SessionId>{lease(0xa), lease(0xb)}));
    ASSERT_EQ(deadlocks[0].waits.size(), 2u);
    EXPECT_EQ(deadlocks[0].waits[0].lock, "/d/2");
    EXPECT_EQ(deadlocks[0].waits[0].waitingKey, "/d/2/a");
    EXPECT_EQ(deadlocks[0].waits[0].onKey, "/d/2/b");
    EXPECT_EQ(deadlocks[0].breakBy, lease(0xa));
    EXPECT_EQ(deadlocks[0].breakLosesHeld, 1u);
    EXPECT_TRUE(graph.rootBlockers().empty()) << "everyone in a cycle waits on someone";
    EXPECT_TRUE(graph.rootsOf(lease(0xa)).empty());
}

TEST(WaitForGraphTest, RevokingTheNamedLeaseLeavesNoCycle) {
    LockTable table;
    WaitForGraph graph;
    table.load({goKey("/d/1", 0xa, 10), goKey("/d/2", 0xb, 11), goKey("/d/2", 0xa, 12),
                goKey("/d/1", 0xb, 13)},
               13, t0);
    graph = WaitForGraph::of(table.locks());
    ASSERT_EQ(graph.deadlocks().size(), 1u);
    // etcd deletes the revoked lease's keys: B then holds both locks.
    apply(table, graph, del("/d/1/a"), 14);
    apply(table, graph, del("/d/2/a"), 15);
    EXPECT_TRUE(graph.deadlocks().empty());
    EXPECT_EQ(graph.held(lease(0xb)), 0u) << "nobody waits for what it holds: nothing kept";
    EXPECT_EQ(graph, WaitForGraph());
    EXPECT_EQ(graph.sessionsWaiting(), 0u);
    EXPECT_EQ(graph, WaitForGraph::of(table.locks()));
}

TEST(WaitForGraphTest, AChainOfFiveSessionsNamesItsRootAndTheRootMovesAsLocksAreHandedOn) {
    // Session i (lease i) holds /c/i and waits for /c/(i-1): 1 blocks 2, which blocks 3, ...
    LockTable table;
    std::vector<mvccpb::KeyValue> keys;
    int64_t revision = 10;
    for (int64_t i = 1; i <= 5; ++i)
        keys.push_back(goKey("/c/" + std::to_string(i), i, ++revision));
    for (int64_t i = 2; i <= 5; ++i)
        keys.push_back(goKey("/c/" + std::to_string(i - 1), i, ++revision));
    table.load(keys, revision, t0);
    WaitForGraph graph = WaitForGraph::of(table.locks());

    auto roots = graph.rootBlockers();
    ASSERT_EQ(roots.size(), 1u);
    EXPECT_EQ(roots[0].session, lease(1));
    EXPECT_EQ(roots[0].direct, 1u);
    EXPECT_EQ(roots[0].transitive, 4u);
    EXPECT_EQ(roots[0].held, 1u);
    EXPECT_EQ(graph.rootsOf(lease(5)), std::vector<SessionId>{lease(1)});
    const auto tree = graph.waitsBehind(lease(1));
    ASSERT_EQ(tree.size(), 4u);
    EXPECT_EQ(tree.front().waiter, lease(2)) << "nearest first";
    EXPECT_EQ(tree.back().waiter, lease(5));
    EXPECT_TRUE(graph.deadlocks().empty());

    // Session 1 lets go of /c/1: 2 holds it, and is the root of 3, 4 and 5.
    apply(table, graph, del("/c/1/1"), ++revision);
    roots = graph.rootBlockers();
    ASSERT_EQ(roots.size(), 1u);
    EXPECT_EQ(roots[0].session, lease(2));
    EXPECT_EQ(roots[0].transitive, 3u);
    EXPECT_EQ(graph.held(lease(2)), 1u) << "/c/1, which nobody waits for now, is not counted";
    EXPECT_EQ(graph, WaitForGraph::of(table.locks()));
}

TEST(WaitForGraphTest, OneSessionPerLockNeverFormsACycleAndKeysWithoutLeaseAreSessionsOfTheirOwn) {
    // etcdctl lock: a session per lock. Two locks, each queue of three, one key without lease.
    LockTable table;
    table.load({goKey("/m/1", 1, 10), goKey("/m/1", 2, 11), goKey("/m/1", 3, 12),
                goKey("/m/2", 4, 13), goKey("/m/2", 5, 14), plainKey("/m/2/stray", 0, 15)},
               15, t0);
    const WaitForGraph graph = WaitForGraph::of(table.locks());
    EXPECT_TRUE(graph.deadlocks().empty());
    const SessionId stray{0, "/m/2/stray"};
    EXPECT_EQ(graph.rootsOf(stray), std::vector<SessionId>{lease(4)});
    const auto roots = graph.rootBlockers();
    ASSERT_EQ(roots.size(), 2u);
    EXPECT_EQ(roots[0].transitive, 2u);
    EXPECT_EQ(roots[1].transitive, 2u);
    // Go's waiters watch their predecessor: 3 waits on 2, not on the holder.
    const auto waits = graph.waitsFrom(lease(3));
    ASSERT_EQ(waits.size(), 1u);
    EXPECT_EQ(waits[0].on, lease(2));
}

TEST(WaitForGraphTest, ASingleKeyLocksWaitersAreInvisibleSoItHasNoWaits) {
    LockTable table; // python-etcd3: the key is the lock
    table.load({plainKey("/locks/x", 7, 10)}, 10, t0);
    const WaitForGraph graph = WaitForGraph::of(table.locks());
    EXPECT_EQ(graph.sessionsWaiting(), 0u);
    EXPECT_TRUE(graph.rootBlockers().empty());
    EXPECT_EQ(graph, WaitForGraph()) << "a lock nobody is seen waiting for costs nothing";
}

TEST(WaitForGraphTest, TheLeaseToRevokeEndsEveryCycleOfTheGroupWithTheFewestHeldKeys) {
    // A waits on B and on C; B and C each wait on A: one group, two cycles through A.
    LockTable table;
    table.load({goKey("/g/1", 0xa, 10), goKey("/g/2", 0xa, 11), goKey("/g/3", 0xb, 12),
                goKey("/g/4", 0xc, 13), goKey("/g/3", 0xa, 14), goKey("/g/4", 0xa, 15),
                goKey("/g/1", 0xb, 16), goKey("/g/2", 0xc, 17)},
               17, t0);
    const auto deadlocks = WaitForGraph::of(table.locks()).deadlocks();
    ASSERT_EQ(deadlocks.size(), 1u);
    EXPECT_EQ(deadlocks[0].sessions.size(), 3u);
    EXPECT_EQ(deadlocks[0].breakBy, lease(0xa)) << "B or C alone leaves the other cycle";
    EXPECT_EQ(deadlocks[0].breakLosesHeld, 2u);

    // A cycle whose members hold different numbers of keys: the one holding fewer is named.
    LockTable two;
    two.load({goKey("/p/1", 1, 10), goKey("/p/2", 2, 11), goKey("/p/3", 2, 12),
              goKey("/p/2", 1, 13), goKey("/p/1", 2, 14)},
             14, t0);
    const auto pair = WaitForGraph::of(two.locks()).deadlocks();
    ASSERT_EQ(pair.size(), 1u);
    EXPECT_EQ(pair[0].breakBy, lease(1)) << "lease 2 holds two keys, lease 1 one";
}

TEST(WaitForGraphTest, TheOldestWaitBehindARootIsItsTransitiveWaitersOldest) {
    LockTable table;
    table.load({goKey("/o/1", 1, 10), goKey("/o/1", 2, 11), goKey("/o/2", 2, 12)}, 12,
               t0 - std::chrono::minutes(5)); // seen five minutes ago: waited at least so long
    WaitForGraph graph = WaitForGraph::of(table.locks());
    mvccpb::Event put;
    put.set_type(mvccpb::Event::PUT);
    *put.mutable_kv() = goKey("/o/2", 3, 13);
    apply(table, graph, put, 13);
    const auto roots = graph.rootBlockers();
    ASSERT_EQ(roots.size(), 1u);
    EXPECT_EQ(roots[0].session, lease(1));
    EXPECT_EQ(roots[0].transitive, 2u);
    EXPECT_EQ(roots[0].oldestWaitSince, t0 - std::chrono::minutes(5));
    EXPECT_TRUE(roots[0].oldestAtLeast);
}

TEST(WaitForGraphTest, RemovingEveryLockLeavesAnEmptyGraph) {
    LockTable table;
    table.load({goKey("/d/1", 0xa, 10), goKey("/d/2", 0xb, 11), goKey("/d/2", 0xa, 12),
                goKey("/d/1", 0xb, 13)},
               13, t0);
    WaitForGraph graph = WaitForGraph::of(table.locks());
    graph.setLock("/d/1", nullptr);
    graph.setLock("/d/2", nullptr);
    EXPECT_EQ(graph, WaitForGraph());
}

} // namespace
