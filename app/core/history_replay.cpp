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

// The table tells a replay's anomalies by a live view's rules, but one of them needs what only a
// lease lookup learnt: that a key's lease is gone. The recorded anomalies say so.
void markExpiredLeases(etcd::LockTable& table, const etcd::AnomaliesByLock& recorded) {
    for (const auto& [name, anomalies] : recorded) {
        const auto lock = table.locks().find(name);
        if (lock == table.locks().end())
            continue;
        for (const etcd::Anomaly& anomaly : anomalies) {
            if (anomaly.kind != etcd::AnomalyKind::ExpiredLease)
                continue;
            const auto& keys = lock->second.keys;
            const auto key = std::find_if(keys.begin(), keys.end(), [&](const etcd::LockKey& k) {
                return k.key == anomaly.key;
            });
            if (key != keys.end() && key->lease != 0)
                table.setLeaseExpired(key->lease, true);
        }
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
            lock != state.locks.end() && lock->second.kind() == etcd::QueueKind::Mutex)
            lock->second.assumed = etcd::QueueKind::Election;
    return state;
}

std::optional<ReplayedLocks> replayAt(const std::vector<HistoryCheckpoint>& checkpoints,
                                      const std::vector<HistoryEntry>& entries, int64_t revision,
                                      etcd::RecipeOverride recipe) {
    const HistoryCheckpoint* start = nullptr;
    for (const auto& checkpoint : checkpoints)
        if (checkpoint.revision <= revision)
            start = &checkpoint;
    if (!start)
        return std::nullopt;
    ReplayedLocks replayed{revision,
                           start->revision,
                           etcd::LockTable(recipe, timesBefore(*start, entries)),
                           std::nullopt,
                           {}};
    Replayer replayer(replayed.table, replayed.elections);
    replayer.load(*start);
    // Events at the checkpoint's revision are in it already. A gap spans the revisions from the
    // last one recorded before it (an event's, or a checkpoint's) to the one re-read after it.
    int64_t lastRecorded = 0;
    etcd::AnomaliesByLock anomalies; // as recorded up to `revision`
    for (const auto& entry : entries) {
        if (const auto* anomaly = std::get_if<HistoryAnomaly>(&entry)) {
            if (anomaly->revision <= revision)
                etcd::applyAnomalyChange(anomalies, anomaly->change);
            continue;
        }
        if (const auto* gap = std::get_if<HistoryGap>(&entry)) {
            // A recorder tells every anomaly anew after a gap.
            if (gap->revision <= revision)
                anomalies.clear();
            int64_t gapFrom = lastRecorded;
            for (const auto& checkpoint : checkpoints)
                if (checkpoint.at <= gap->since && checkpoint.revision < gap->revision)
                    gapFrom = std::max(gapFrom, checkpoint.revision);
            if (gapFrom < revision && revision < gap->revision)
                replayed.inGap = *gap;
            continue;
        }
        const auto& event = std::get<etcd::LockEvent>(entry);
        lastRecorded = std::max(lastRecorded, event.revision);
        if (event.revision > start->revision && event.revision <= revision)
            replayer.apply(event);
    }
    markExpiredLeases(replayed.table, anomalies);
    return replayed;
}

} // namespace lockscope
