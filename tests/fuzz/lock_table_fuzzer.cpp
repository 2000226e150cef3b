// libFuzzer target for LockTable: bytes become a script of puts, deletes and reloads over a
// few lock names, and after every step the table must still be a set of well-formed queues,
// each key in the one lock the recipes' rule gives it from the keys alone, the wait-for graph
// kept from the locks each step touched must equal one built from every lock, and a replay of
// the events and checkpoints a recorder would have written must show the same locks, and the
// anomalies it read by the locks a change log named must be the table's.
#include "app/core/history_replay.h"
#include "etcdclient/locks/anomaly_changes.h"
#include "etcdclient/locks/lock_change_log.h"
#include "etcdclient/locks/lock_table.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>

using namespace etcd;

namespace {

void check(bool ok) {
    if (!ok)
        std::abort();
}

// The ground truth the script builds: key -> create revision and lease.
struct Store {
    std::map<std::string, mvccpb::KeyValue> keys;
    int64_t revision = 1;
};

// The RWMutex name of a reader's or writer's key: <name>/read|write/<n>.
std::string rwNameOf(const std::string& key) {
    const auto slash = key.rfind('/');
    return key.substr(0, key.rfind('/', slash - 1));
}

// The lock of every key, from the store's keys alone (docs/design.md §1c): a key naming its
// own lease makes its parent a queue, an RWMutex key its name; other keys are locks of their
// own, listed with a NUL after the key when a queue has the key's name.
std::map<std::string, std::string> expectedLocks(const Store& store) {
    std::set<std::string> queues;
    for (const auto& [key, kv] : store.keys) {
        if (LockTable::modeOf(key) != KeyMode::Exclusive)
            queues.insert(rwNameOf(key));
        else if (key.find('/') != std::string::npos && LockTable::namesItsLease(key, kv.lease()))
            queues.insert(key.substr(0, key.rfind('/')));
    }
    std::map<std::string, std::string> out;
    for (const auto& [key, kv] : store.keys) {
        const auto slash = key.rfind('/');
        if (LockTable::modeOf(key) != KeyMode::Exclusive)
            out[key] = rwNameOf(key);
        else if (slash != std::string::npos && queues.count(key.substr(0, slash)))
            out[key] = key.substr(0, slash);
        else
            out[key] = queues.count(key) ? key + '\0' : key;
    }
    return out;
}

void verify(const LockTable& table, const Store& store) {
    const auto expected = expectedLocks(store);
    std::size_t total = 0;
    std::map<int64_t, LockTable::LeaseUse> uses;      // the table's lease counts, from scratch
    std::map<int64_t, std::set<std::string>> locksOf; // and the locks of each lease
    for (const auto& [name, queue] : table.locks()) {
        for (std::size_t i = 0; i < queue->keys.size(); ++i)
            if (queue->keys[i].lease != 0) {
                ++uses[queue->keys[i].lease].keys;
                locksOf[queue->keys[i].lease].insert(name);
                uses[queue->keys[i].lease].holding += i < queue->holderCount() ? 1 : 0;
            }
        check(!queue->keys.empty());
        check(queue->name == name);
        for (std::size_t i = 0; i < queue->keys.size(); ++i) {
            const auto& k = queue->keys[i];
            check(expected.at(k.key) == name);
            check(table.lockNameOf(k.key) == name);
            // Only a queue has more than one key; a key that is its lock shows no waiters.
            check(queue->keyIsLock == (name.compare(0, k.key.size(), k.key) == 0));
            if (i > 0)
                check(queue->keys[i - 1].createRevision < k.createRevision);
            auto truth = store.keys.find(k.key);
            check(truth != store.keys.end());
            check(truth->second.create_revision() == k.createRevision);
            // A holder knows since when it holds; a waiter never held.
            check(k.acquiredAt.has_value() == (i < queue->holderCount()));
            check(k.mode == LockTable::modeOf(k.key));
            check(i < queue->holderCount() || queue->waitsOn(i) != nullptr);
        }
        total += queue->keys.size();
    }
    check(total == store.keys.size());
    check(uses.size() == table.leaseUses().size());
    for (const auto& [lease, use] : uses) {
        const auto kept = table.leaseUses().find(lease);
        check(kept != table.leaseUses().end() && kept->second == use);
        const auto& names = locksOf[lease];
        check(table.locksOfLease(lease) == std::vector<std::string>(names.begin(), names.end()));
        // One entry per key of the lease.
        check((kept->second.firstLock ? 1 : 0) + kept->second.moreLocks.size() == use.keys);
    }
}

// The graph kept a lock at a time (from LockTable::touched) is the one every lock gives, and
// what it answers holds together.
void verifyGraph(WaitForGraph& kept, const LockTable& table) {
    kept.setLocks(table.touched(), table.locks());
    check(kept == WaitForGraph::of(table.locks()));
    for (const Deadlock& deadlock : kept.deadlocks()) {
        check(deadlock.sessions.size() > 1 && deadlock.waits.size() >= deadlock.sessions.size());
        check(std::find(deadlock.sessions.begin(), deadlock.sessions.end(), deadlock.breakBy) !=
              deadlock.sessions.end());
    }
    for (const RootBlocker& root : kept.rootBlockers())
        check(root.direct >= 1 && root.transitive >= root.direct &&
              kept.waitsFrom(root.session).empty());
}

// Everything a reader's copy of the locks shows, to tell whether it changed under the reader.
std::string contentsOf(const LockQueues& locks) {
    std::string text;
    for (const auto& [name, queue] : locks) {
        text += name + '|' + queue->name + '|' + std::to_string(queue->keyIsLock) + '\n';
        for (const LockKey& k : queue->keys)
            text += k.key + '|' + std::to_string(k.lease) + '|' + std::to_string(k.createRevision) +
                    '|' + std::to_string(k.modRevision) + '|' + k.value + '|' +
                    std::to_string(k.acquiredAt.has_value()) + '\n';
    }
    return text;
}

// The same locks, keys (lease, create revision) and holders: what a replay can know.
bool sameLocks(const LockQueues& a, const LockQueues& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        return x.first == y.first && x.second->holderCount() == y.second->holderCount() &&
               std::equal(x.second->keys.begin(), x.second->keys.end(), y.second->keys.begin(),
                          y.second->keys.end(), [](const LockKey& k, const LockKey& l) {
                              return k.key == l.key && k.lease == l.lease &&
                                     k.createRevision == l.createRevision;
                          });
    });
}

// What a recorder of the table would have written (each entry and checkpoint with its seq, as a
// store reads them), and whether a replay of it can match the table: not after a key was put
// again with another lease (no event tells of that) until the next re-read's checkpoint.
struct Recorded {
    std::vector<lockscope::HistoryCheckpoint> checkpoints;
    std::vector<lockscope::HistoryEntry> entries;
    std::vector<int64_t> seqs;
    int64_t nextSeq = 1;
    bool replayable = true;
    etcd::AnomaliesByLock anomaliesSeen;
    // The locks changed, as a monitor logs them for a recorder's feed; small, so that a feed
    // also falls too far behind it and reads every lock.
    etcd::LockChangeLog changeLog{4};
    uint64_t seenStamp = 0;

    void add(lockscope::HistoryEntry entry) {
        entries.push_back(std::move(entry));
        seqs.push_back(nextSeq++);
    }
    void add(const std::vector<LockEvent>& events) {
        for (const auto& event : events)
            add(event);
    }
    // What the step did to the anomalies, after its events: read as a recorder's feed reads
    // them, by the locks the log says changed since it last asked.
    void anomalies(const LockTable& table, int64_t revision,
                   std::chrono::system_clock::time_point at) {
        std::vector<etcd::AnomalyChange> changes;
        const auto changed = changeLog.changedAfter(seenStamp);
        seenStamp = changeLog.stamp();
        etcd::updateChangedAnomalies(anomaliesSeen, table, changed, changes);
        check(anomaliesSeen == table.anomalies());
        for (auto& change : changes)
            add(lockscope::HistoryAnomaly{std::move(change), revision, at});
    }
    // As a recorder takes one: the anomalies brought up to date first, the keys' with them.
    void checkpoint(const LockTable& table, int64_t revision,
                    std::chrono::system_clock::time_point at) {
        anomalies(table, revision, at);
        checkpoints.push_back({revision, at, "resync",
                               lockscope::historyKeysOf(table.locks(), anomaliesSeen), nextSeq++});
        replayable = true;
    }
    void verify(const LockTable& table, int64_t revision) const {
        if (!replayable)
            return;
        const auto replayed =
            lockscope::replayAt(checkpoints, entries, revision, etcd::RecipeOverride::Auto, &seqs);
        check(replayed && sameLocks(replayed->table.locks(), table.locks()));
        check(replayed->table.anomalies() == table.anomalies());
    }
};

// A lock whose waiters hold no key has no queue to join and no wait to show.
void verifyEvents(const std::vector<LockEvent>& events) {
    for (const auto& e : events) {
        const bool keyIsLock = e.recipe == QueueKind::SingleKey || e.recipe == QueueKind::Unknown;
        check(!(keyIsLock && e.kind == LockEventKind::Enqueued));
        check(!(keyIsLock && e.waited));
        check(!(e.kind == LockEventKind::Acquired && !keyIsLock && !e.waited));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const char* names[] = {"/a", "/a/b", "/a//", "", "/\xff"};
    // Go Mutex keys (and decimal ones, node etcd3's elections, when the lease is 1 or 2),
    // single-key locks ("b" under "/a" is named like the queue "/a/b"), odd ones, and the
    // RWMutex recipe's readers and writers.
    static const char* suffixes[] = {"1",
                                     "2",
                                     "a",
                                     "ff",
                                     "b",
                                     "",
                                     "read/1795530066567608001",
                                     "write/1795530066567608002",
                                     "read/1795530066567608003"};
    LockTable table;
    WaitForGraph graph;
    Store store;
    const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1));
    table.load({}, store.revision, now);
    Recorded recorded;
    recorded.checkpoint(table, store.revision, now);
    // A reader's copy (a window's LockMonitorState) shares the table's queues: whatever the table
    // does next, the copy must read as it did when taken (SharedLockQueue).
    LockQueues readersCopy;
    std::string readersCopyRead;
    // A replay reads every entry: checked in the first steps only, so an input stays quick.
    constexpr size_t replayedSteps = 256;
    for (size_t i = 0; i + 2 < size; i += 3) {
        const uint8_t op = data[i] % 4;
        const std::string key =
            std::string(names[data[i + 1] % 5]) + "/" + suffixes[data[i + 2] % 9];
        if (op == 0 || op == 1) { // put: new key, or a value update of an existing one
            ++store.revision;
            mvccpb::KeyValue kv;
            auto existing = store.keys.find(key);
            kv.set_key(key);
            kv.set_lease((data[i] >> 2) % 3); // a put again may change a key's lease
            if (existing != store.keys.end() && existing->second.lease() != kv.lease())
                recorded.replayable = false;
            kv.set_create_revision(existing != store.keys.end() ? existing->second.create_revision()
                                                                : store.revision);
            kv.set_mod_revision(store.revision);
            kv.set_value(std::string(1, static_cast<char>(data[i])));
            store.keys[key] = kv;
            mvccpb::Event e;
            e.set_type(mvccpb::Event::PUT);
            *e.mutable_kv() = kv;
            const auto events = table.apply(e, store.revision, now);
            for (const auto& lock : table.touched())
                recorded.changeLog.changed(lock);
            verifyEvents(events);
            recorded.add(events);
        } else if (op == 2) {
            ++store.revision;
            store.keys.erase(key);
            mvccpb::Event e;
            e.set_type(mvccpb::Event::DELETE);
            e.mutable_kv()->set_key(key);
            const auto events = table.apply(e, store.revision, now);
            for (const auto& lock : table.touched())
                recorded.changeLog.changed(lock);
            verifyEvents(events);
            recorded.add(events);
        } else { // a reload after a gap
            std::vector<mvccpb::KeyValue> kvs;
            for (const auto& [k, kv] : store.keys)
                kvs.push_back(kv);
            const auto events = table.load(kvs, store.revision, now);
            recorded.changeLog.changedAll();
            for (const auto& e : events)
                check(e.recovered);
            verifyEvents(events);
            recorded.add(lockscope::HistoryGap{now, now, store.revision, "re-read"});
            recorded.add(events);
            recorded.checkpoint(table, store.revision, now);
        }
        if (table.setLeaseExpired(data[i + 2] % 3, data[i] & 0x80))
            for (const auto& lock : table.locksOfLease(data[i + 2] % 3))
                recorded.changeLog.changed(lock);
        recorded.anomalies(table, store.revision, now);
        verify(table, store);
        verifyGraph(graph, table);
        if (i / 3 < replayedSteps)
            recorded.verify(table, store.revision);
        (void)table.anomalies();
        check(contentsOf(readersCopy) == readersCopyRead);
        if (data[i + 1] & 0x80) {
            readersCopy = table.locks();
            readersCopyRead = contentsOf(readersCopy);
        }
    }
    return 0;
}
