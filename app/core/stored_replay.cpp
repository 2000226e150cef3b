#include "app/core/stored_replay.h"

#include "app/core/lock_history_store.h"

#include <algorithm>
#include <variant>

namespace lockscope {

namespace {

// Where an entry stands in revisions, and when it was recorded (a gap: when it ended).
std::pair<int64_t, std::chrono::system_clock::time_point> revisionAndTime(const HistoryEntry& e) {
    if (const auto* event = std::get_if<etcd::LockEvent>(&e))
        return {event->revision, event->observedAt};
    if (const auto* gap = std::get_if<HistoryGap>(&e))
        return {gap->revision, gap->until};
    const auto& anomaly = std::get<HistoryAnomaly>(e);
    return {anomaly.revision, anomaly.at};
}

// `revision` given, or else the one reached at `time`.
StoredReplay replayStored(LockHistoryStore& store, std::optional<int64_t> revision,
                          std::chrono::system_clock::time_point time) {
    StoredReplay replay;
    const auto marks = store.checkpointMarks();
    if (!marks)
        return replay;
    replay.read = true;
    if (marks->empty())
        return replay;
    replay.first = marks->front();
    const auto start =
        std::find_if(marks->rbegin(), marks->rend(), [&](const HistoryCheckpoint& mark) {
            return revision ? mark.revision <= *revision : mark.at <= time;
        });
    if (start == marks->rend())
        return replay;
    LockHistoryStore::Filter interval;
    interval.fromSeq = start->seq;
    if (start != marks->rbegin())
        interval.toSeq = std::prev(start)->seq;
    const auto checkpoint = store.checkpoints(start->seq, start->seq + 1);
    std::vector<int64_t> seqs;
    const auto entries = checkpoint ? store.entries(interval, &seqs) : std::nullopt;
    if (!entries || checkpoint->size() != 1) {
        replay.read = false;
        return replay;
    }
    if (!revision) {
        revision = start->revision;
        for (const HistoryEntry& entry : *entries)
            if (const auto [at, when] = revisionAndTime(entry); when <= time)
                revision = std::max(*revision, at);
        replay.at = time;
    } else {
        replay.at = start->at;
        for (const HistoryEntry& entry : *entries)
            if (const auto [at, when] = revisionAndTime(entry); at <= *revision)
                replay.at = std::max(replay.at, when);
    }
    replay.locks = replayAt(*checkpoint, *entries, *revision, etcd::RecipeOverride::Auto, &seqs);
    return replay;
}

} // namespace

StoredReplay replayStoredAt(LockHistoryStore& store, int64_t revision) {
    return replayStored(store, revision, {});
}

StoredReplay replayStoredAt(LockHistoryStore& store, std::chrono::system_clock::time_point time) {
    return replayStored(store, std::nullopt, time);
}

} // namespace lockscope
