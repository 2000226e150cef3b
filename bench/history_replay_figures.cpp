// A recording of a busy prefix opened for replay as the desktop opens one (RecordedHistory, on
// this thread, at most its defaultMaxEntries): how long it takes to open and what it holds, then
// the locks at moments spread over what it opened, each timed as a scrubber's frame; and moments
// spread over the whole recording read from the store by interval, as `history --at` reads one.
#include "app/core/lock_history_store.h"
#include "app/core/recorded_history.h"
#include "app/core/stored_replay.h"
#include "figures.h"
#include "handoff_watch.h"
#include "resident_memory.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdio>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

// `minutes` of 1000 lock events a second on 100 locks, as a recorder writes them: the events
// with their times, and a checkpoint of the whole state each minute. False when a write failed.
bool writeRecording(const QString& location, int minutes, int64_t& events, int64_t& revision) {
    QString problem;
    auto store = LockHistoryStore::openForWriting(location, "bench", "/bench/replay/", problem);
    if (!store) {
        std::fprintf(stderr, "lockscope-bench: replay: %s\n", qPrintable(problem));
        return false;
    }
    constexpr int64_t eventsPerSecond = 1000;
    const int64_t lockEvents = minutes * 60 * eventsPerSecond;
    HandoffWatch watch("/bench/replay/");
    const auto t0 = std::chrono::system_clock::now() - std::chrono::minutes(minutes);
    etcd::LockTable table;
    table.load({}, 1, t0);
    store->write(HistoryCheckpoint{1, t0, "start", {}});
    auto checkpointed = t0;
    while (events < lockEvents) {
        const mvccpb::Event& event = watch.next();
        // Each round's three events take 3 ms: 1000 a second.
        const auto at = t0 + std::chrono::microseconds(events * 1000);
        for (const auto& lockEvent : table.apply(event, event.kv().mod_revision(), at)) {
            store->write(lockEvent);
            ++events;
        }
        if (at - checkpointed >= std::chrono::minutes(1)) {
            store->write(HistoryCheckpoint{table.revision(), at, "periodic",
                                           historyKeysOf(table.locks(), table.anomalies())});
            checkpointed = at;
        }
    }
    revision = table.revision();
    return store->commit();
}

} // namespace

HistoryReplayFigure measureHistoryReplay(int minutes, const QString& where) {
    HistoryReplayFigure figure;
    figure.minutes = minutes;
    QTemporaryDir dir(where.isEmpty() ? QDir::tempPath() + "/lockscope-bench-XXXXXX"
                                      : where + "/lockscope-bench-XXXXXX");
    dir.setAutoRemove(where.isEmpty());
    const QString file = dir.filePath("replay.db");
    figure.keptAt = where.isEmpty() ? QString() : file;
    int64_t lastRevision = 0;
    const auto writing = Clock::now();
    if (!writeRecording(file, minutes, figure.events, lastRevision))
        return figure;
    figure.writeSeconds = std::chrono::duration<double>(Clock::now() - writing).count();
    figure.fileMb = static_cast<double>(QFileInfo(file).size()) / 1e6;
    {
        QString problem;
        auto store = LockHistoryStore::openForReading(file, problem);
        for (int frame = 0; store && frame < 60; ++frame) {
            const int64_t revision = 1 + lastRevision * (frame + 1) / 61;
            const auto asked = Clock::now();
            const StoredReplay replay = replayStoredAt(*store, revision);
            figure.stored.add(Clock::now() - asked);
            if (!replay.locks || replay.locks->state().locks.empty()) {
                std::fprintf(stderr, "lockscope-bench: replay: revision %lld not read\n",
                             static_cast<long long>(revision));
                return figure;
            }
        }
        if (!store) {
            std::fprintf(stderr, "lockscope-bench: replay: %s\n", qPrintable(problem));
            return figure;
        }
    }
    std::shared_ptr<const RecordedHistorySummary> summary;
    QString failure;
    std::shared_ptr<const ReplayedMoment> replayed;
    {
        // Its last tenth alone, as `lockscope --history --since` opens it.
        LockHistoryStore::Filter lastTenth;
        lastTenth.sinceRevision = lastRevision - lastRevision / 10;
        RecordedHistory span(file,
                             {[&](auto opened) { summary = std::move(opened); },
                              [&](const QString& problem) { failure = problem; }, [](auto) {}},
                             {}, lastTenth);
        const auto asked = Clock::now();
        span.open();
        figure.tenthOpenSeconds = std::chrono::duration<double>(Clock::now() - asked).count();
        if (!summary || !summary->partial) {
            std::fprintf(stderr, "lockscope-bench: replay: %s\n", qPrintable(failure));
            return figure;
        }
        summary.reset();
    }
    const double heapBefore = heapInUseMb();
    RecordedHistory history(file, {[&](auto opened) { summary = std::move(opened); },
                                   [&](const QString& problem) { failure = problem; },
                                   [&](auto moment) { replayed = std::move(moment); }});
    const auto began = Clock::now();
    history.open();
    figure.openSeconds = std::chrono::duration<double>(Clock::now() - began).count();
    figure.heapMb = heapInUseMb() - heapBefore;
    if (!summary) {
        std::fprintf(stderr, "lockscope-bench: replay: %s\n", qPrintable(failure));
        return figure;
    }
    figure.openedMoments = summary->moments.size();
    figure.timelineHolds = summary->holds.spans.size();
    figure.timelineHoldsLeftOut = summary->holds.spansLeftOut;
    if (summary->cutBefore && summary->recordedUntil)
        figure.openedMinutes =
            std::chrono::duration<double>(*summary->recordedUntil - *summary->cutBefore).count() /
            60;
    // Moments spread over the whole recording, as a scrubber dragged across it asks for them.
    constexpr int frames = 60;
    const std::size_t moments = summary->moments.size();
    for (int frame = 0; frame < frames; ++frame) {
        const std::size_t moment = moments * static_cast<std::size_t>(frame + 1) / (frames + 1);
        const auto asked = Clock::now();
        history.replay(moment);
        figure.frame.add(Clock::now() - asked);
        if (!replayed || replayed->moment != moment || replayed->state.locks.empty()) {
            std::fprintf(stderr, "lockscope-bench: replay: moment %zu not replayed\n", moment);
            return figure;
        }
    }
    figure.ran = true;
    return figure;
}

} // namespace lockscope::bench
