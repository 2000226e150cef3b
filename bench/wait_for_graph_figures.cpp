// The wait-for graph at a million lock keys, in memory (no etcd): what keeping it costs each
// event beside what the lock table's own apply costs (the event-to-model path's share of it),
// and how long the questions take that the Blockers page asks once a second.
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/lock_table.h"
#include "etcdclient/locks/wait_for_graph.h"
#include "figures.h"
#include "resident_memory.h"

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;
const auto t0 = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));

mvccpb::KeyValue goKey(const std::string& lock, int64_t lease, int64_t revision) {
    mvccpb::KeyValue kv;
    kv.set_key(lock + "/" + etcd::leaseHex(lease));
    kv.set_lease(lease);
    kv.set_create_revision(revision);
    kv.set_mod_revision(revision);
    return kv;
}

std::string lockName(int i) {
    return "/bench/graph/lock" + std::to_string(i);
}

} // namespace

WaitForGraphFigure measureWaitForGraph(int locks, int keysPerLock, int events) {
    WaitForGraphFigure figure;
    figure.locks = locks;
    figure.keysPerLock = keysPerLock;
    const int64_t base = 0x694d000000000000;
    // Session s holds lock s and waits in the keysPerLock - 1 locks before it: every session
    // waits on the one before, round the whole prefix: one deadlock of `locks` sessions, the
    // worst a cycle search meets.
    int64_t revision = 1;
    std::vector<mvccpb::KeyValue> kvs;
    kvs.reserve(static_cast<std::size_t>(locks) * keysPerLock);
    for (int k = 0; k < keysPerLock; ++k)
        for (int i = 0; i < locks; ++i)
            kvs.push_back(goKey(lockName(i), base + (i + k) % locks, ++revision));
    etcd::LockTable table;
    table.load(kvs, revision, t0);
    kvs.clear();
    kvs.shrink_to_fit();
    const double before = residentMb();
    auto began = Clock::now();
    etcd::WaitForGraph graph = etcd::WaitForGraph::of(table.locks());
    figure.buildSeconds = std::chrono::duration<double>(Clock::now() - began).count();
    figure.residentMb = residentMb() - before;

    began = Clock::now();
    const auto deadlocks = graph.deadlocks();
    figure.cycleSearchMs = std::chrono::duration<double, std::milli>(Clock::now() - began).count();
    figure.deadlockSessions = deadlocks.empty() ? 0 : deadlocks.front().sessions.size();

    // Events: a new waiter joins a lock, then leaves it, at random-looking locks; each timed
    // through the table alone and through the table and the graph.
    const std::string keys = std::to_string(locks * keysPerLock / 1000) + "k keys";
    figure.tableApply.name = "graph: lock table apply alone, " + keys;
    figure.graphApply.name = "graph: lock table apply + wait-for graph, " + keys;
    for (int e = 0; e < events; ++e) {
        const int lock = static_cast<int>((int64_t(e) * 7919) % locks);
        const int64_t lease = base + locks + e; // a new session
        mvccpb::Event put;
        put.set_type(mvccpb::Event::PUT);
        *put.mutable_kv() = goKey(lockName(lock), lease, ++revision);
        mvccpb::Event del;
        del.set_type(mvccpb::Event::DELETE);
        del.mutable_kv()->set_key(put.kv().key());
        const bool withGraph = e % 2 == 1; // alternate, so both see the same machine
        for (const mvccpb::Event* event : {&put, &del}) {
            const auto start = Clock::now();
            table.apply(*event, event == &put ? revision : ++revision, t0);
            if (withGraph)
                graph.setLocks(table.touched(), table.locks());
            (withGraph ? figure.graphApply : figure.tableApply).add(Clock::now() - start);
            if (!withGraph)
                graph.setLocks(table.touched(), table.locks()); // kept current, untimed
        }
    }

    // An expiry: which locks its lease has keys in, from the index and by walking every lock.
    figure.expiryIndexed.name = "graph: an expiry's locks from the lease index, " + keys;
    figure.expiryWalk.name = "graph: an expiry's locks by walking every lock, " + keys;
    std::size_t found = 0;
    for (int e = 0; e < 20; ++e) {
        const int64_t lease = base + (int64_t(e) * 7919) % locks;
        auto start = Clock::now();
        found += table.locksOfLease(lease).size();
        figure.expiryIndexed.add(Clock::now() - start);
        start = Clock::now();
        for (const auto& [name, queue] : table.locks())
            for (const etcd::LockKey& key : queue->keys)
                if (key.lease == lease) {
                    ++found;
                    break;
                }
        figure.expiryWalk.add(Clock::now() - start);
    }
    if (found != 2 * 20 * static_cast<std::size_t>(keysPerLock))
        std::fprintf(stderr, "graph: the index and the walk found %zu locks, not %d\n", found,
                     2 * 20 * keysPerLock);

    // A thousand waits, one pair of them a deadlock of two: what the once-a-second questions cost
    // where few of a prefix's sessions wait (they walk the sessions that wait, not the keys).
    etcd::WaitForGraph sparse;
    for (int i = 0; i < 1000; ++i) { // a thousand waits among a million keys' locks
        etcd::LockQueue queue;
        queue.name = lockName(i);
        for (int k = 0; k < 2; ++k) {
            etcd::LockKey key;
            key.key = queue.name + "/" + std::to_string(k);
            key.lease = base + (i < 2 ? (i + k) % 2 : i * 2 + k);
            key.createRevision = i * 2 + k + 1;
            queue.keys.push_back(key);
        }
        sparse.setLock(queue.name, &queue);
    }
    began = Clock::now();
    figure.sparseDeadlocks = sparse.deadlocks().size();
    figure.sparseRootBlockers = sparse.rootBlockers().size();
    figure.sparseQuestionsMs =
        std::chrono::duration<double, std::milli>(Clock::now() - began).count();
    return figure;
}

} // namespace lockscope::bench
