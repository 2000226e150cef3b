#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/lease_evidence.h"
#include "etcdclient/locks/lock_monitor.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "support/client_thread_block.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/waiting.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <random>
#include <set>
#include <thread>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockMonitorIntegrationTest : public EtcdTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::shared_ptr<LockMonitor> startMonitor(RecipeOverride recipe = RecipeOverride::Auto) {
        auto monitor = LockMonitor::create(*client, {.prefix = prefix(), .recipe = recipe});
        monitor->start();
        EXPECT_TRUE(eventually([&] { return monitor->state().live; }));
        return monitor;
    }
    std::unique_ptr<ChildProcess> etcdctl(std::vector<std::string> args) {
        return std::make_unique<ChildProcess>(etcdctlArgs(cluster().endpointList(), args),
                                              std::vector<std::string>{"ETCDCTL_API=3"});
    }
    std::vector<std::string> queueOf(const LockMonitorState& s) {
        std::vector<std::string> keys;
        auto it = s.locks.find(lockName());
        if (it != s.locks.end())
            for (const auto& k : it->second->keys)
                keys.push_back(k.key);
        return keys;
    }
    // Keys put() puts have no lease: grouped by their parent as Go's waiters see them, they are
    // the Mutex recipe's, when named (auto reads each as a lock of its own).
    static constexpr RecipeOverride mutexRecipe = RecipeOverride::Mutex;
    void put(const std::string& key) {
        pb::PutRequest request;
        request.set_key(key);
        ASSERT_TRUE(call(*client, &Client::put, request));
    }
};

// Each lock's keys, and the anomalies as (key, kind) in any order: what a display shows.
using Shown = std::pair<std::map<std::string, std::vector<std::string>>,
                        std::set<std::pair<std::string, AnomalyKind>>>;
Shown shown(const LockMonitorState& state) {
    Shown out;
    for (const auto& [name, queue] : state.locks)
        for (const auto& key : queue->keys)
            out.first[name].push_back(key.key);
    for (const auto& [name, anomalies] : state.anomalies)
        for (const auto& anomaly : anomalies)
            out.second.emplace(anomaly.key, anomaly.kind);
    return out;
}

TEST_F(LockMonitorIntegrationTest, HolderAndQueueMatchWhoActuallyGetsTheLockNext) {
    auto monitor = startMonitor();
    std::vector<std::unique_ptr<ChildProcess>> contenders;
    std::vector<std::string> keys;
    contenders.push_back(etcdctl({"lock", lockName()}));
    auto first = contenders[0]->readLine(10s);
    ASSERT_TRUE(first);
    keys.push_back(*first);
    for (int i = 1; i < 4; ++i) {
        contenders.push_back(etcdctl({"lock", lockName()}));
        ASSERT_TRUE(
            eventually([&] { return queueOf(monitor->state()).size() == std::size_t(i + 1); }));
    }
    auto state = monitor->state();
    auto queue = queueOf(state);
    ASSERT_EQ(queue.size(), 4u);
    EXPECT_EQ(queue[0], keys[0]) << "the monitor's holder is not etcdctl's holder";
    for (int i = 1; i < 4; ++i) {
        // Release the holder; the one the monitor put next must be the one that prints its key.
        const std::string expectedNext = queueOf(monitor->state())[1];
        contenders[i - 1]->signal(SIGINT);
        std::string acquired;
        for (int j = i; j < 4 && acquired.empty(); ++j)
            if (auto line = contenders[j]->readLine(j == i ? 10000ms : 100ms))
                acquired = *line;
        EXPECT_EQ(acquired, expectedNext);
        ASSERT_TRUE(eventually([&] {
            auto q = queueOf(monitor->state());
            return !q.empty() && q[0] == expectedNext;
        }));
    }
    contenders[3]->signal(SIGINT);
    ASSERT_TRUE(eventually([&] { return queueOf(monitor->state()).empty(); }));

    std::vector<LockEventKind> kinds;
    for (const auto& e : monitor->history())
        if (e.lock == lockName())
            kinds.push_back(e.kind);
    // The monitor was watching before the first contender came: every step was seen live.
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), LockEventKind::Enqueued), 4);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), LockEventKind::Acquired), 4);
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), LockEventKind::Released), 4);
    for (const auto& e : monitor->history())
        EXPECT_FALSE(e.recovered);
}

TEST_F(LockMonitorIntegrationTest, AnUpdateCopiesOnlyTheLocksThatChanged) {
    auto monitor = startMonitor(mutexRecipe);
    for (const char* lock : {"a", "b", "c"})
        put(prefix() + lock + "/1"); // no lease: each an anomaly too
    LockMonitorState copy;
    EXPECT_TRUE(monitor->update(copy).all);
    ASSERT_TRUE(eventually([&] {
        monitor->update(copy);
        return copy.locks.size() == 3;
    }));

    put(prefix() + "b/2");
    pb::DeleteRangeRequest release;
    release.set_key(prefix() + "c/1");
    ASSERT_TRUE(call(*client, &Client::deleteRange, release));
    std::set<std::string> copied;
    ASSERT_TRUE(eventually([&] {
        const LockChanges changes = monitor->update(copy);
        EXPECT_FALSE(changes.all);
        copied.insert(changes.locks.begin(), changes.locks.end());
        return copied.size() == 2 && shown(copy) == shown(monitor->state());
    }));
    EXPECT_EQ(copied, (std::set<std::string>{prefix() + "b", prefix() + "c"}));
    EXPECT_EQ(copy.locks.at(prefix() + "b")->keys.size(), 2u);
    EXPECT_FALSE(copy.locks.contains(prefix() + "c"));
    EXPECT_EQ(copy.anomalies.at(prefix() + "b").size(), 2u); // b/1 and b/2 have no lease
    EXPECT_EQ(copy.anomalies.size(), 2u);                    // a's and b's
    EXPECT_TRUE(monitor->update(copy).locks.empty());
}

TEST_F(LockMonitorIntegrationTest, AStateAnotherMonitorFilledIsCopiedWhole) {
    put(prefix() + "a/1");
    auto first = startMonitor(mutexRecipe);
    LockMonitorState copy;
    first->update(copy);
    ASSERT_EQ(copy.locks.size(), 1u);

    put(prefix() + "b/1");
    auto second = startMonitor(mutexRecipe); // its stamps may equal the first's
    ASSERT_TRUE(eventually([&] { return second->state().locks.size() == 2; }));
    EXPECT_TRUE(second->update(copy).all);
    EXPECT_EQ(shown(copy), shown(second->state()));
}

// A listing of many pages joins the state page by page (a display shows the first locks at
// once), and a bounded update copies it a slice at a time, removals included.
TEST_F(LockMonitorIntegrationTest, PagesJoinTheStateAsTheyArriveAndBoundedUpdatesCopySlices) {
    // "a-b/1" sorts before "a/1" as a key, after "a" as a lock: pages are not in name order.
    std::vector<std::string> keys = {"a-b/1", "a/1", "a/2"};
    for (int lock = 0; lock < 30; ++lock)
        for (int key = 1; key <= 2; ++key)
            keys.push_back("lock" + std::to_string(100 + lock) + "/" + std::to_string(key));
    for (const std::string& key : keys)
        put(prefix() + key);
    LockMonitor::Options options;
    options.prefix = prefix();
    options.recipe = mutexRecipe;
    options.pageSize = 7;
    struct Seen {
        int64_t listed, listing;
        std::size_t locks;
        bool live;
    };
    std::mutex mutex;
    std::vector<Seen> seen;
    std::shared_ptr<LockMonitor> monitor;
    // Copies of at most 4 locks at a time until nothing is pending; tryUpdate gives way to the
    // monitor's own work (its lease round), so a busy answer is tried again.
    const auto copyInSlices = [&](LockMonitorState& copy) {
        for (;;) {
            const auto changes = monitor->tryUpdate(copy, 4);
            if (!changes) {
                std::this_thread::yield();
                continue;
            }
            EXPECT_FALSE(changes->all);
            EXPECT_LE(changes->locks.size(), 4u);
            if (copy.pendingLocks.empty())
                return;
        }
    };
    // A state brought up to date after each page: after the first, what it copies are the
    // pages' ranges of lock names, not everything.
    LockMonitorState alongside;
    monitor = LockMonitor::create(*client, options, [&](const std::vector<LockEvent>&) {
        std::lock_guard lock(mutex);
        const LockMonitorState state = monitor->state();
        seen.push_back({state.listedKeys, state.listingKeys, state.locks.size(), state.live});
        copyInSlices(alongside);
    });
    monitor->start();
    ASSERT_TRUE(eventually([&] { return monitor->liveness().first; }));
    // The monitor is live before it tells the listener of its last page (outside its lock): a
    // page each, then the last.
    ASSERT_TRUE(eventually([&] {
        std::lock_guard lock(mutex);
        return seen.size() >= keys.size() / 7;
    }));
    {
        std::lock_guard lock(mutex);
        EXPECT_EQ(seen.front().listed, 7);
        EXPECT_EQ(seen.front().listing, static_cast<int64_t>(keys.size()));
        EXPECT_GT(seen.front().locks, 0u);
        EXPECT_FALSE(seen.front().live);
        for (std::size_t i = 1; i + 1 < seen.size(); ++i)
            EXPECT_GE(seen[i].locks, seen[i - 1].locks);
        EXPECT_EQ(seen.back().listing, 0); // none in progress once live
        copyInSlices(alongside);
        EXPECT_EQ(shown(alongside), shown(monitor->state()));
    }
    LockMonitorState copy;
    copyInSlices(copy);
    EXPECT_EQ(shown(copy), shown(monitor->state()));
    EXPECT_EQ(copy.locks.size(), 32u);
    EXPECT_EQ(copy.locks.at(prefix() + "a")->keys.size(), 2u);

    // A re-list changes everything: the slices remove what went while the monitor was stopped.
    monitor->stop();
    pb::DeleteRangeRequest gone;
    gone.set_key(prefix() + "lock1");
    gone.set_range_end(prefix() + "lock12"); // lock100 to lock119
    ASSERT_TRUE(call(*client, &Client::deleteRange, gone));
    put(prefix() + "z/1");
    monitor->start();
    ASSERT_TRUE(eventually([&] { return monitor->liveness().first; }));
    copyInSlices(copy);
    EXPECT_EQ(shown(copy), shown(monitor->state()));
    EXPECT_EQ(copy.locks.size(), 13u); // a, a-b, lock120..lock129, z
    EXPECT_TRUE(copy.locks.contains(prefix() + "z"));
    // Before the listener's mutex and vectors go: once stop() returns, no call is under way.
    monitor->stop();
}

// A compaction between two pages of a long first load fails the next page (it reads at the
// first page's revision). Until the retry, the state must not pass the pages already read off
// as every lock there is, nor show a listing that no longer moves.
TEST_F(LockMonitorIntegrationTest, AListingCutShortShowsNoHalfLoadWhileItWaitsToRetry) {
    for (int lock = 0; lock < 30; ++lock)
        put(prefix() + "lock" + std::to_string(100 + lock) + "/1");
    auto writer = makeClient(); // the monitor's client thread is the one waiting in the listener
    LockMonitor::Options options;
    options.prefix = prefix();
    options.recipe = mutexRecipe;
    options.pageSize = 7;
    std::atomic<bool> compacted{false};
    std::mutex mutex;
    std::vector<LockMonitor::Retry> retries;
    std::vector<LockMonitorState> atRetry;
    // Declared after what its listeners use: it goes (and stops) first.
    std::shared_ptr<LockMonitor> monitor;
    monitor = LockMonitor::create(
        *client, options,
        [&](const std::vector<LockEvent>&) {
            if (compacted.exchange(true))
                return;
            pb::PutRequest later;
            later.set_key(prefix() + "later/1");
            const auto put = call(*writer, &Client::put, later);
            ASSERT_TRUE(put);
            ASSERT_EQ(
                lockscope::test::etcdctl(cluster().endpointList(),
                                         {"compact", std::to_string(put->header().revision())})
                    .exitCode,
                0);
        },
        [&](const LockMonitor::Retry& retry) {
            std::lock_guard lock(mutex);
            retries.push_back(retry);
            atRetry.push_back(monitor->state());
        });
    monitor->start();
    ASSERT_TRUE(eventually([&] { return monitor->liveness().first; }, 15s));
    {
        std::lock_guard lock(mutex);
        ASSERT_GE(retries.size(), 1u);
        EXPECT_NE(retries.front().error.message.find("compacted"), std::string::npos)
            << retries.front().error.message;
        EXPECT_TRUE(atRetry.front().locks.empty());
        EXPECT_EQ(atRetry.front().listedKeys, 0);
        EXPECT_EQ(atRetry.front().listingKeys, 0);
        EXPECT_FALSE(atRetry.front().live);
    }
    const LockMonitorState state = monitor->state();
    EXPECT_EQ(state.locks.size(), 31u); // lock100..lock129 and later
    EXPECT_TRUE(state.locks.contains(prefix() + "later"));
}

TEST_F(LockMonitorIntegrationTest, LeaseTtlsAreLookedUpForHolders) {
    auto monitor = startMonitor();
    auto holder = etcdctl({"lock", "--ttl", "7", lockName()});
    ASSERT_TRUE(holder->readLine(10s));
    ASSERT_TRUE(eventually([&] {
        auto s = monitor->state();
        auto q = s.locks.find(lockName());
        return q != s.locks.end() && s.leases.count(q->second->keys[0].lease) &&
               s.leases.at(q->second->keys[0].lease).grantedTtlSeconds == 7;
    }));
    holder->signal(SIGINT);
}

// Clean releases are not expiries, even with so many short leases that a countdown can run out
// before its next lookup. 150 sessions of TTL 2 s in 50 queues of three,
// each holding 0.2-6 s and released cleanly (a revoke, or the key deleted and then a revoke):
// none is an expiry, and no TTL counts down past its staleness limit. Three more sessions stop
// their keepalives mid-hold: theirs are, and only theirs.
TEST_F(LockMonitorIntegrationTest,
       ManyShortLeasesReleasedCleanlyAreNotExpiriesButAbandonedOnesAre) {
    auto monitor = startMonitor();
    constexpr int sessions = 150;
    constexpr int abandoned = 3;
    struct Contender {
        std::shared_ptr<Session> session;
        std::string key;
        std::chrono::steady_clock::time_point releaseAt;
        bool deleteFirst = false;
    };
    std::vector<Contender> contenders;
    std::mt19937 random(30);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < sessions + abandoned; ++i) {
        auto session = createSession(*client, 2);
        ASSERT_TRUE(session);
        Contender c{.session = session,
                    .key = prefix() + "job" + std::to_string(i % 50) + "/" +
                           leaseHex(session->leaseId()),
                    .releaseAt = start + std::chrono::milliseconds(200 + random() % 5800),
                    .deleteFirst = i % 2 == 0};
        pb::PutRequest put;
        put.set_key(c.key);
        put.set_lease(session->leaseId());
        ASSERT_TRUE(call(*client, &Client::put, put));
        contenders.push_back(std::move(c));
    }
    std::set<std::string> abandonedKeys;
    for (int i = sessions; i < sessions + abandoned; ++i) {
        contenders[i].session->setPaused(true);
        abandonedKeys.insert(contenders[i].key);
    }
    std::vector<Contender*> byRelease;
    for (int i = 0; i < sessions; ++i)
        byRelease.push_back(&contenders[i]);
    std::sort(byRelease.begin(), byRelease.end(),
              [](auto* a, auto* b) { return a->releaseAt < b->releaseAt; });
    // A TTL is shown as a countdown only while its lookup is within its staleness limit (the
    // flag is set on the monitor's 0.5 s ticks, hence the slack); how many were stale is a
    // figure of the lookup rate, which a slow machine (TSan) may not keep up.
    int unmarked = 0;
    int stale = 0;
    LockMonitorState state;
    for (Contender* c : byRelease) {
        std::this_thread::sleep_until(c->releaseAt);
        if (c->deleteFirst) {
            pb::DeleteRangeRequest del;
            del.set_key(c->key);
            ASSERT_TRUE(call(*client, &Client::deleteRange, del));
        }
        c->session->close();
        monitor->update(state);
        const auto now = std::chrono::steady_clock::now();
        for (const auto& [lease, ttl] : state.leases) {
            stale += ttl.stale ? 1 : 0;
            unmarked +=
                !ttl.stale && ttl.ttlSeconds >= 0 &&
                now - ttl.fetchedAt > leaseStaleAfter(ttl.grantedTtlSeconds, 2000ms) + 750ms;
        }
    }
    ASSERT_TRUE(eventually([&] { return monitor->state().locks.empty(); }, 15s));

    std::map<LockEventKind, int> departures;
    std::set<std::string> expired;
    for (const auto& e : monitor->history())
        if (e.kind != LockEventKind::Enqueued && e.kind != LockEventKind::Acquired) {
            ++departures[e.kind];
            if (e.kind == LockEventKind::Expired)
                expired.insert(e.key);
        }
    EXPECT_EQ(expired, abandonedKeys);
    EXPECT_EQ(departures[LockEventKind::Released] + departures[LockEventKind::Cancelled], sessions);
    EXPECT_EQ(unmarked, 0) << "TTLs counted down past their staleness limit, not marked stale";
    std::printf("%d clean releases of TTL 2 s leases: %d expiries; TTLs seen stale %d times\n",
                sessions,
                static_cast<int>(std::count_if(
                    expired.begin(), expired.end(),
                    [&](const std::string& key) { return !abandonedKeys.contains(key); })),
                stale);
}

TEST_F(LockMonitorIntegrationTest, ElectionsShowTheLeaderAndItsProposal) {
    auto monitor = startMonitor();
    auto leader = etcdctl({"elect", prefix() + "election", "proposal-a"});
    ASSERT_TRUE(leader->readLine(10s));
    ASSERT_TRUE(eventually([&] {
        auto s = monitor->state();
        auto e = s.locks.find(prefix() + "election");
        return e != s.locks.end() && e->second->holder()->value == "proposal-a";
    }));
    leader->signal(SIGINT);
}

// etcd cancels a watch for compaction only when its next revision is already compacted (a
// watch that is caught up is never cancelled); WatchIntegrationTest covers that cancel, and the
// monitor answers it by re-listing, as it does after any broken watch.
TEST_F(LockMonitorIntegrationTest, CompactionDuringTheWatchLeavesTheViewLiveAndCorrect) {
    auto monitor = startMonitor();
    auto holder = etcdctl({"lock", lockName()});
    ASSERT_TRUE(holder->readLine(10s));
    ASSERT_TRUE(eventually([&] { return queueOf(monitor->state()).size() == 1; }));
    pb::PutRequest filler;
    filler.set_key(prefix() + "filler");
    int64_t latest = 0;
    for (int i = 0; i < 5; ++i)
        latest = call(*client, &Client::put, filler)->header().revision();
    ASSERT_EQ(
        lockscope::test::etcdctl(cluster().endpointList(), {"compact", std::to_string(latest)})
            .exitCode,
        0);
    holder->signal(SIGINT);
    ASSERT_TRUE(eventually([&] { return queueOf(monitor->state()).empty(); }));
    EXPECT_TRUE(monitor->state().live);
}

// A watch resumed from a revision compacted meanwhile (here: etcd restarted while the monitor's
// client thread was busy, then writes and a compaction before it could resume) ends with
// Compacted. The listener hears at once that the view is re-reading, not at the re-list's end.
TEST_F(LockMonitorIntegrationTest, AWatchResumedPastACompactionSaysSoWhileItReLists) {
    std::mutex mutex;
    std::vector<std::pair<bool, std::string>> heard;
    std::shared_ptr<LockMonitor> monitor;
    monitor = LockMonitor::create(*client, {prefix()}, [&](const std::vector<LockEvent>&) {
        std::lock_guard lock(mutex);
        heard.push_back(monitor->liveness());
    });
    monitor->start();
    ASSERT_TRUE(eventually([&] { return monitor->state().live; }));
    auto holder = etcdctl({"lock", "--ttl", "30", lockName()});
    ASSERT_TRUE(holder->readLine(10s));
    ASSERT_TRUE(eventually([&] { return queueOf(monitor->state()).size() == 1; }));

    ClientThreadBlock block(*client);
    cluster().stopMember(0);
    ASSERT_TRUE(cluster().restartMember(0).ok());
    ASSERT_TRUE(cluster().waitReady().ok());
    auto writer = makeClient();
    pb::PutRequest filler;
    filler.set_key(prefix() + "filler");
    int64_t latest = 0;
    for (int i = 0; i < 5; ++i) {
        auto put = call(*writer, &Client::put, filler);
        ASSERT_TRUE(put);
        latest = put->header().revision();
    }
    ASSERT_EQ(
        lockscope::test::etcdctl(cluster().endpointList(), {"compact", std::to_string(latest)})
            .exitCode,
        0);
    block.release();

    ASSERT_TRUE(eventually(
        [&] {
            std::lock_guard lock(mutex);
            return std::find(heard.begin(), heard.end(),
                             std::pair<bool, std::string>{false, "re-reading after compaction"}) !=
                   heard.end();
        },
        15s));
    ASSERT_TRUE(eventually([&] { return monitor->state().live; }, 15s));
    EXPECT_EQ(queueOf(monitor->state()).size(), 1u);
    holder->signal(SIGINT);
}

TEST_F(LockMonitorIntegrationTest, StoppingAndRestartingEtcdIsRecoveredFrom) {
    auto monitor = startMonitor();
    auto holder = etcdctl({"lock", "--ttl", "30", lockName()});
    auto key = holder->readLine(10s);
    ASSERT_TRUE(key);
    ASSERT_TRUE(eventually([&] { return queueOf(monitor->state()).size() == 1; }));

    cluster().stopMember(0);
    ASSERT_TRUE(eventually([&] { return !monitor->state().live; }));
    // While etcd is down the lock changes hands on disk only after restart: restart, then
    // release, and the monitor must come back live and see the release.
    ASSERT_TRUE(cluster().restartMember(0).ok());
    ASSERT_TRUE(cluster().waitReady().ok());
    ASSERT_TRUE(eventually([&] { return monitor->state().live; }, 15s));
    holder->signal(SIGINT);
    holder->wait(10s);
    pb::DeleteRangeRequest del; // etcdctl may have lost its session while etcd was down
    del.set_key(*key);
    call(*client, &Client::deleteRange, del);
    ASSERT_TRUE(eventually([&] { return queueOf(monitor->state()).empty(); }, 15s));
}

} // namespace

namespace {

// stop() while the answers of the run it ends wait behind the busy client thread: the list and
// the lease lookups that start() sent are answered after stop() returned, and must change
// nothing and reach no listener; nor may that run's lease ticks go on.
TEST_F(LockMonitorIntegrationTest, AnswersToAStoppedRunChangeNothingAndReachNoListener) {
    auto session = createSession(*client, 10);
    auto holder = Mutex::create(*client, session, lockName());
    ASSERT_TRUE(lockAsync(*holder).get().ok());
    std::atomic<bool> stopped{false};
    std::atomic<int> heardAfterStop{0};
    LockMonitor::Options options{prefix()};
    options.leaseRefresh = 0ms; // every tick looks the holder's lease up again
    auto monitor = LockMonitor::create(*client, options, [&](const std::vector<LockEvent>&) {
        if (stopped)
            ++heardAfterStop;
    });
    monitor->start();
    ASSERT_TRUE(eventually([&] { return monitor->state().leases.contains(session->leaseId()); }));
    monitor->stop();
    const LockMonitorState before = monitor->state();
    {
        ClientThreadBlock block(*client);
        // Lists again and looks the holder's lease up at once (the last run's table is kept).
        monitor->start();
        monitor->stop();
        stopped = true;
    }
    std::this_thread::sleep_for(1200ms); // the answers, and two lease ticks, are handled by now
    EXPECT_EQ(heardAfterStop, 0) << "the listener heard from a stopped monitor";
    LockMonitorState after = before;
    const LockChanges changed = monitor->update(after);
    EXPECT_FALSE(changed.leases) << "a stopped monitor's lease TTLs changed";
    EXPECT_FALSE(after.live);
    EXPECT_EQ(after.status, "stopped");
    ASSERT_TRUE(unlockNow(*holder).value());
}

// stop() from another thread while the listener runs: it returns once the call has ended, and
// the call sees the run as it was (live), not stopped: a watcher printing its liveness would
// otherwise report its own stop as lost contact.
TEST_F(LockMonitorIntegrationTest, AListenerCallUnderWayEndsBeforeStopAndSeesTheRunLive) {
    std::weak_ptr<LockMonitor> weak;
    std::atomic<bool> held{false};
    std::atomic<bool> release{false};
    std::atomic<int> liveAfterRelease{-1};
    auto monitor = LockMonitor::create(*client, {prefix()}, [&](const std::vector<LockEvent>&) {
        const auto self = weak.lock();
        if (!self || !self->liveness().first || held.exchange(true))
            return;
        while (!release)
            std::this_thread::sleep_for(1ms);
        liveAfterRelease = self->liveness().first ? 1 : 0;
    });
    weak = monitor;
    monitor->start();
    ASSERT_TRUE(eventually([&] { return held.load(); }));
    std::atomic<bool> stopReturned{false};
    std::thread stopper([&] {
        monitor->stop();
        stopReturned = true;
    });
    std::this_thread::sleep_for(300ms);
    EXPECT_FALSE(stopReturned) << "stop() returned while a listener call was under way";
    release = true;
    stopper.join();
    EXPECT_EQ(liveAfterRelease, 1) << "the call under way saw the run stopped";
    EXPECT_EQ(monitor->liveness().second, "stopped");
}

} // namespace
