#include "app/core/history_replay.h"

#include <algorithm>
#include <set>
#include <string>

namespace lockscope {

namespace {

mvccpb::KeyValue keyValue(const std::string& key, int64_t lease, int64_t createRevision,
                          int64_t modRevision) {
    mvccpb::KeyValue kv;
    kv.set_key(key);
    kv.set_lease(lease);
    kv.set_create_revision(createRevision);
    kv.set_mod_revision(modRevision);
    kv.set_version(1);
    return kv;
}

// Replays events into a table: each as the put or delete that caused it, so the table decides
// holders and recipes as it does live. Keeps which keys are there, since an Acquired event
// repeats a key already put (an Enqueued one) or is its only trace (a single-key lock's holder).
class Replayer {
public:
    Replayer(etcd::LockTable& table, std::set<std::string>& elections)
        : table_(table)
        , elections_(elections) {}

    void load(const HistoryCheckpoint& checkpoint) {
        std::vector<mvccpb::KeyValue> kvs;
        kvs.reserve(checkpoint.keys.size());
        for (const HistoryKey& key : checkpoint.keys) {
            kvs.push_back(keyValue(key.key, key.lease, key.createRevision, key.modRevision));
            present_.insert(key.key);
            noteRecipe(key.lock, key.recipe);
        }
        table_.load(kvs, checkpoint.revision, checkpoint.at);
    }

    void apply(const etcd::LockEvent& event) {
        noteRecipe(event.lock, event.recipe);
        using Kind = etcd::LockEventKind;
        switch (event.kind) {
        case Kind::Enqueued:
        case Kind::Acquired:
            if (!present_.contains(event.key))
                put(event, event.createRevision != 0 ? event.createRevision : event.revision);
            break;
        case Kind::Proclaimed: put(event, event.createRevision); break;
        case Kind::Released:
        case Kind::Cancelled:
        case Kind::Expired:
        case Kind::ForceReleased:
            if (present_.erase(event.key)) {
                mvccpb::Event deleted;
                deleted.set_type(mvccpb::Event::DELETE);
                *deleted.mutable_kv() = keyValue(event.key, 0, 0, event.revision);
                table_.apply(deleted, event.revision, event.observedAt);
            }
            break;
        case Kind::Lost: // our own hold ended; the key leaves etcd with a later event, if at all
            break;
        }
    }

private:
    void noteRecipe(const std::string& lock, etcd::QueueKind recipe) {
        if (recipe == etcd::QueueKind::Election)
            elections_.insert(lock);
        else
            elections_.erase(lock);
    }

    void put(const etcd::LockEvent& event, int64_t createRevision) {
        mvccpb::Event put;
        put.set_type(mvccpb::Event::PUT);
        *put.mutable_kv() = keyValue(event.key, event.lease, createRevision, event.revision);
        table_.apply(put, event.revision, event.observedAt);
        present_.insert(event.key);
    }

    etcd::LockTable& table_;
    std::set<std::string>& elections_;
    std::set<std::string> present_;
};

// When the keys of `start` were enqueued and acquired, as the events recorded before it say: a
// replay from a checkpoint knows them as the live view did, where the checkpoint alone would
// make every wait and hold begin at its time, as a lower bound.
std::shared_ptr<const etcd::SeenTimesByKey> timesBefore(const HistoryCheckpoint& start,
                                                        const std::vector<HistoryEntry>& entries) {
    auto seen = std::make_shared<etcd::SeenTimesByKey>();
    using Kind = etcd::LockEventKind;
    for (const auto& entry : entries) {
        const auto* event = std::get_if<etcd::LockEvent>(&entry);
        if (!event || event->revision > start.revision)
            continue;
        switch (event->kind) {
        case Kind::Enqueued:
            (*seen)[event->key] = {event->createRevision, event->observedAt, std::nullopt,
                                   event->recovered, false};
            break;
        case Kind::Acquired: {
            auto [times, fresh] = seen->try_emplace(event->key);
            if (fresh || times->second.createRevision != event->createRevision) {
                // Its enqueue went unrecorded (a key that was its lock, or before the start).
                times->second = {event->createRevision,
                                 event->observedAt -
                                     event->waited.value_or(std::chrono::milliseconds(0)),
                                 std::nullopt, event->atLeast || !event->waited, false};
            }
            times->second.acquiredAt = event->observedAt;
            times->second.acquiredBeforeSeen = event->recovered;
            break;
        }
        case Kind::Released:
        case Kind::Cancelled:
        case Kind::Expired:
        case Kind::ForceReleased: seen->erase(event->key); break;
        case Kind::Lost:
        case Kind::Proclaimed: break;
        }
    }
    return seen;
}

// The times the live view knew of the checkpoint's keys, which the checkpoint keeps; nothing when
// it was recorded before they were kept.
std::shared_ptr<const etcd::SeenTimesByKey> timesIn(const HistoryCheckpoint& checkpoint) {
    auto seen = std::make_shared<etcd::SeenTimesByKey>();
    for (const HistoryKey& key : checkpoint.keys) {
        if (!key.enqueuedAt)
            return nullptr;
        (*seen)[key.key] = {key.createRevision, *key.enqueuedAt, key.acquiredAt,
                            key.enqueuedBeforeSeen, key.acquiredBeforeSeen};
    }
    return seen;
}

// The table tells a replay's anomalies by a live view's rules, but one of them needs what only a
// lease lookup learnt: that a key's lease is gone. The checkpoint and the anomalies recorded
// after it say so, by lock and key.
void markLeasesGone(etcd::LockTable& table,
                    const std::set<std::pair<std::string, std::string>>& leaseGone) {
    for (const auto& lockAndKey : leaseGone) {
        const std::string& key = lockAndKey.second;
        const auto lock = table.locks().find(lockAndKey.first);
        if (lock == table.locks().end())
            continue;
        const auto& keys = lock->second->keys;
        const auto found = std::find_if(keys.begin(), keys.end(),
                                        [&](const etcd::LockKey& k) { return k.key == key; });
        if (found != keys.end() && found->lease != 0)
            table.setLeaseExpired(found->lease, true);
    }
}

} // namespace

etcd::LockMonitorState ReplayedLocks::state() const {
    etcd::LockMonitorState state;
    state.revision = revision;
    state.live = true;
    state.locks = table.locks();
    state.anomalies = table.anomalies();
    for (const std::string& name : elections)
        if (const auto lock = state.locks.find(name);
            lock != state.locks.end() && lock->second->kind() == etcd::QueueKind::Mutex)
            lock->second.edit().assumed = etcd::QueueKind::Election;
    return state;
}

std::optional<ReplayedLocks> replayAt(const std::vector<HistoryCheckpoint>& checkpoints,
                                      const std::vector<HistoryEntry>& entries, int64_t revision,
                                      etcd::RecipeOverride recipe,
                                      const std::vector<int64_t>* entrySeqs) {
    const HistoryCheckpoint* start = nullptr;
    const HistoryCheckpoint* next = nullptr; // the one recorded after the start
    for (std::size_t i = 0; i < checkpoints.size(); ++i)
        if (checkpoints[i].revision <= revision) {
            start = &checkpoints[i];
            next = i + 1 < checkpoints.size() ? &checkpoints[i + 1] : nullptr;
        }
    if (!start)
        return std::nullopt;
    // With the entries' seqs, only those between the start and the next checkpoint are walked:
    // a replay costs a checkpoint's interval, not the whole recording.
    const bool windowed = entrySeqs && start->seq != 0;
    std::size_t from = 0, to = entries.size();
    if (windowed) {
        const auto at = [&](int64_t seq) {
            return static_cast<std::size_t>(
                std::lower_bound(entrySeqs->begin(), entrySeqs->end(), seq) - entrySeqs->begin());
        };
        from = at(start->seq);
        if (next && next->seq != 0)
            to = at(next->seq);
    }
    auto times = timesIn(*start);
    ReplayedLocks replayed{revision,
                           start->revision,
                           etcd::LockTable(recipe, times ? times : timesBefore(*start, entries)),
                           std::nullopt,
                           {}};
    Replayer replayer(replayed.table, replayed.elections);
    replayer.load(*start);
    std::set<std::pair<std::string, std::string>> leaseGone;
    for (const HistoryKey& key : start->keys)
        if (key.leaseGone)
            leaseGone.emplace(key.lock, key.key);
    // Events at the checkpoint's revision are in it already, and so are the anomalies recorded
    // at it (a recorder reads both at once). A gap spans the revisions from the last one
    // recorded before it (an event's, or a checkpoint's) to the one re-read after it.
    int64_t lastRecorded = windowed ? start->revision : 0;
    for (std::size_t i = from; i < to; ++i) {
        const HistoryEntry& entry = entries[i];
        if (const auto* anomaly = std::get_if<HistoryAnomaly>(&entry)) {
            const etcd::AnomalyChange& change = anomaly->change;
            if (change.anomaly.kind == etcd::AnomalyKind::ExpiredLease &&
                (windowed || anomaly->revision >= start->revision) &&
                anomaly->revision <= revision) {
                if (change.appeared)
                    leaseGone.emplace(change.lock, change.anomaly.key);
                else
                    leaseGone.erase({change.lock, change.anomaly.key});
            }
            continue;
        }
        if (const auto* gap = std::get_if<HistoryGap>(&entry)) {
            int64_t gapFrom = lastRecorded;
            for (const auto& checkpoint : checkpoints)
                if (checkpoint.at <= gap->since && checkpoint.revision < gap->revision)
                    gapFrom = std::max(gapFrom, checkpoint.revision);
            if (gapFrom < revision && revision < gap->revision)
                replayed.inGap = *gap;
            continue;
        }
        const auto& event = std::get<etcd::LockEvent>(entry);
        // Past the revision asked for nothing applies, and no gap after covers it.
        if (event.revision > revision)
            break;
        lastRecorded = std::max(lastRecorded, event.revision);
        if (event.revision > start->revision)
            replayer.apply(event);
    }
    markLeasesGone(replayed.table, leaseGone);
    return replayed;
}

} // namespace lockscope
