// replayAt: a live view's table fed puts and deletes records its events, anomalies and
// checkpoints as a recorder does; the replay at every revision must equal what the live view
// showed then.
#include "app/core/history_replay.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);

// Each lock's recipe and keys in queue order, with lease, create revision and whether they hold.
std::string describe(const etcd::LockQueues& locks) {
    std::string text;
    for (const auto& [name, queue] : locks) {
        text += name + " (" + etcd::queueKindName(queue->kind()) + "):";
        for (std::size_t i = 0; i < queue->keys.size(); ++i) {
            const auto& k = queue->keys[i];
            text += " " + k.key + "(" + std::to_string(k.lease) + "," +
                    std::to_string(k.createRevision) + (i < queue->holderCount() ? ",holds" : "") +
                    ")";
        }
        text += "\n";
    }
    return text;
}

// The cluster's keys, a live view of them, and what a recorder of that view wrote.
class Recording {
public:
    Recording() {
        live_.load({}, revision_, at());
        checkpoint("start");
    }

    void put(const std::string& key, int64_t lease, const std::string& value = "") {
        mvccpb::KeyValue& kv = keys_[key];
        ++revision_;
        if (kv.create_revision() == 0)
            kv.set_create_revision(revision_);
        kv.set_key(key);
        kv.set_lease(lease);
        kv.set_mod_revision(revision_);
        kv.set_value(value);
        mvccpb::Event event;
        event.set_type(mvccpb::Event::PUT);
        *event.mutable_kv() = kv;
        record(live_.apply(event, revision_, at()));
    }

    void erase(const std::string& key, bool leaseExpired = false) {
        ++revision_;
        const int64_t lease = keys_.at(key).lease();
        keys_.erase(key);
        if (leaseExpired)
            live_.setLeaseExpired(lease, true);
        mvccpb::Event event;
        event.set_type(mvccpb::Event::DELETE);
        event.mutable_kv()->set_key(key);
        record(live_.apply(event, revision_, at()));
    }

    // The cluster changes while the view does not watch: the gap, then the re-read.
    void eraseUnseen(const std::string& key) {
        ++revision_;
        keys_.erase(key);
    }
    // A lease lookup finds `lease` gone while its keys are still there.
    void leaseGone(int64_t lease) {
        live_.setLeaseExpired(lease, true);
        record({});
    }

    void reread() {
        const auto since = lastHeard_;
        std::vector<mvccpb::KeyValue> kvs;
        for (const auto& [key, kv] : keys_)
            kvs.push_back(kv);
        add(HistoryGap{since, at(), revision_, "the watch broke"});
        record(live_.load(kvs, revision_, at()));
        checkpoint("resync");
    }

    void checkpoint(const std::string& reason) {
        checkpoints.push_back(
            {revision_, at(), reason, historyKeysOf(live_.locks(), live_.anomalies()), nextSeq_++});
    }

    int64_t revision() const { return revision_; }
    const etcd::LockTable& live() const { return live_; }
    const std::map<int64_t, std::string>& shown() const { return shown_; }
    const std::map<int64_t, etcd::AnomaliesByLock>& anomaliesShown() const {
        return anomaliesShown_;
    }

    std::vector<HistoryCheckpoint> checkpoints;
    std::vector<HistoryEntry> entries;
    std::vector<int64_t> seqs; // each entry's, as a store reads them

private:
    std::chrono::system_clock::time_point at() const {
        return t0 + std::chrono::seconds(revision_);
    }
    void add(HistoryEntry entry) {
        entries.push_back(std::move(entry));
        seqs.push_back(nextSeq_++);
    }
    void record(const std::vector<etcd::LockEvent>& events) {
        for (const auto& event : events)
            add(event);
        // After the events, what they did to the anomalies: a recorder asks for every lock's.
        const auto anomalies = live_.anomalies();
        std::vector<etcd::AnomalyChange> changes;
        etcd::updateAllAnomalies(seenAnomalies_, anomalies, changes);
        for (auto& change : changes)
            add(HistoryAnomaly{std::move(change), revision_, at()});
        anomaliesShown_[revision_] = anomalies;
        shown_[revision_] = describe(live_.locks());
        lastHeard_ = at();
    }

    etcd::LockTable live_;
    std::map<std::string, mvccpb::KeyValue> keys_;
    std::map<int64_t, std::string> shown_;
    std::map<int64_t, etcd::AnomaliesByLock> anomaliesShown_;
    etcd::AnomaliesByLock seenAnomalies_;
    int64_t nextSeq_ = 1;
    int64_t revision_ = 1;
    std::chrono::system_clock::time_point lastHeard_ = t0;
};

// Every revision replayed twice: walking every entry, and (with the seqs a store reads) only
// those of the chosen checkpoint's interval.
void expectReplayMatches(const Recording& recording) {
    for (const auto& [revision, shown] : recording.shown()) {
        for (const auto* seqs :
             {static_cast<const std::vector<int64_t>*>(nullptr), &recording.seqs}) {
            const auto replayed = replayAt(recording.checkpoints, recording.entries, revision,
                                           etcd::RecipeOverride::Auto, seqs);
            const std::string how = seqs ? " (its interval)" : " (every entry)";
            ASSERT_TRUE(replayed) << "revision " << revision << how;
            EXPECT_EQ(describe(replayed->state().locks), shown) << "revision " << revision << how;
            EXPECT_EQ(replayed->state().anomalies, recording.anomaliesShown().at(revision))
                << "revision " << revision << how;
            EXPECT_EQ(replayed->state().revision, revision);
        }
    }
}

TEST(HistoryReplayTest, EveryRevisionOfMutexesSingleKeysElectionsAndRwLocks) {
    Recording r;
    r.put("/locks/job/1a", 0x1a);
    r.put("/locks/job/2b", 0x2b);
    r.put("/locks/job/3c", 0x3c);
    r.put("/locks/flag", 5);
    r.erase("/locks/job/1a");                      // released: 2b holds
    r.put("/locks/leader/64", 0x64, "first");      // an election's candidate
    r.put("/locks/leader/64", 0x64, "proclaimed"); // its proclaim
    r.checkpoint("periodic");
    r.put("/locks/rw/read/1795530066567608001", 7);
    r.put("/locks/rw/write/1795530066567608002", 8);
    r.erase("/locks/job/2b", true); // expired: 3c holds
    r.erase("/locks/flag");
    r.erase("/locks/rw/read/1795530066567608001");
    expectReplayMatches(r);
    // The periodic checkpoint is where a late revision starts from.
    EXPECT_EQ(replayAt(r.checkpoints, r.entries, r.revision())->checkpointRevision,
              r.checkpoints[1].revision);
}

// Keys without a lease, or not named after theirs, are anomalies by the table's own rules; a
// lease gone while its key stays is known only from the lookup that found it, which the
// recording keeps as an anomaly appearing.
TEST(HistoryReplayTest, AnomaliesAtEveryRevisionAndALeaseRecordedGone) {
    Recording r;
    r.put("/locks/job/1a", 0x1a);
    r.put("/locks/job/stuck", 0); // no lease, and not named after one
    r.put("/locks/job/2b", 0x2c); // names another lease
    r.leaseGone(0x1a);
    const int64_t gone = r.revision();
    r.checkpoint("periodic"); // a replay from here still knows the lease is gone
    r.put("/locks/job/3d", 0x3d);
    r.erase("/locks/job/stuck");
    r.erase("/locks/job/1a", true);
    // A lease found gone after a checkpoint, at its revision: the checkpoint does not say so.
    r.checkpoint("periodic");
    r.leaseGone(0x3d);
    expectReplayMatches(r);
    const auto anomalies = r.anomaliesShown().at(gone).at("/locks/job");
    EXPECT_TRUE(std::any_of(anomalies.begin(), anomalies.end(), [](const etcd::Anomaly& a) {
        return a.kind == etcd::AnomalyKind::ExpiredLease && a.key == "/locks/job/1a";
    }));
}

TEST(HistoryReplayTest, ARevisionInAGapIsSaidSoAndTheReReadRestoresTheState) {
    Recording r;
    r.put("/locks/job/1a", 0x1a);
    r.put("/locks/job/2b", 0x2b);
    r.put("/locks/flag", 5);
    const int64_t beforeGap = r.revision();
    r.eraseUnseen("/locks/job/1a");
    r.eraseUnseen("/locks/flag");
    r.reread(); // 2b holds, recovered
    r.erase("/locks/job/2b");
    expectReplayMatches(r);
    const auto inGap = replayAt(r.checkpoints, r.entries, beforeGap + 1);
    ASSERT_TRUE(inGap);
    ASSERT_TRUE(inGap->inGap);
    EXPECT_EQ(inGap->inGap->reason, "the watch broke");
    EXPECT_FALSE(replayAt(r.checkpoints, r.entries, beforeGap)->inGap);
    EXPECT_FALSE(replayAt(r.checkpoints, r.entries, r.revision())->inGap);
}

void expectTimesAsLive(const Recording& r, const std::optional<ReplayedLocks>& replayed);

// A replay that starts from a later checkpoint knows when its keys were enqueued and acquired,
// as the live view did: not from the checkpoint's time, as a lower bound.
TEST(HistoryReplayTest, WaitsAndHoldsBeganWhenTheCheckpointOrTheEventsBeforeItSay) {
    Recording r;
    r.put("/locks/job/1a", 0x1a);
    r.put("/locks/job/2b", 0x2b);
    r.put("/locks/job/3c", 0x3c);
    r.erase("/locks/job/1a"); // 2b holds from here
    r.put("/locks/other/4d", 0x4d);
    r.put("/locks/other/5e", 0x5e);
    r.checkpoint("periodic");
    r.put("/locks/other/6f", 0x6f);
    // A checkpoint keeps its keys' times; one recorded before they were kept (schema 2) has
    // them from the events before it.
    auto withoutTimes = r.checkpoints;
    for (auto& key : withoutTimes.back().keys)
        key.enqueuedAt = key.acquiredAt = std::nullopt;
    for (const auto* checkpoints : {&r.checkpoints, &withoutTimes}) {
        SCOPED_TRACE(checkpoints == &withoutTimes ? "times from the events" : "times kept");
        expectTimesAsLive(r, replayAt(*checkpoints, r.entries, r.revision(),
                                      etcd::RecipeOverride::Auto, &r.seqs));
    }
}

void expectTimesAsLive(const Recording& r, const std::optional<ReplayedLocks>& replayed) {
    ASSERT_TRUE(replayed);
    EXPECT_EQ(replayed->checkpointRevision, r.checkpoints.back().revision);
    const auto replayedLocks = replayed->state().locks;
    const auto& liveLocks = r.live().locks();
    int compared = 0;
    for (const auto& [name, queue] : liveLocks) {
        const auto& replayedKeys = replayedLocks.at(name)->keys;
        ASSERT_EQ(replayedKeys.size(), queue->keys.size()) << name;
        for (std::size_t i = 0; i < queue->keys.size(); ++i, ++compared) {
            const auto& live = queue->keys[i];
            const auto& shown = replayedKeys[i];
            EXPECT_EQ(shown.enqueuedAt, live.enqueuedAt) << live.key;
            EXPECT_EQ(shown.enqueuedBeforeSeen, live.enqueuedBeforeSeen) << live.key;
            EXPECT_EQ(shown.acquiredAt, live.acquiredAt) << live.key;
            EXPECT_EQ(shown.acquiredBeforeSeen, live.acquiredBeforeSeen) << live.key;
        }
    }
    EXPECT_EQ(compared, 5);
    // The holder of /locks/job acquired before the checkpoint: at its release of 1a.
    const auto* holder = replayedLocks.at("/locks/job")->holder();
    ASSERT_TRUE(holder && holder->acquiredAt);
    EXPECT_LT(*holder->acquiredAt, r.checkpoints.back().at);
}

TEST(HistoryReplayTest, NothingBeforeTheRecordingBegan) {
    Recording r;
    r.put("/locks/job/1a", 0x1a);
    EXPECT_FALSE(replayAt(r.checkpoints, r.entries, r.checkpoints.front().revision - 1));
    EXPECT_FALSE(replayAt({}, r.entries, r.revision()));
}

} // namespace
