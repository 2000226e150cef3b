#include "app/core/recorded_history.h"

#include "app/core/lock_history_store.h"
#include "app/core/stored_replay.h"

#include <QCoreApplication>
#include <algorithm>

namespace lockscope {

RecordedHistory::RecordedHistory(QString location, Callbacks callbacks, std::string prefix,
                                 LockHistoryStore::Filter span, std::size_t maxEntries)
    : location_(std::move(location))
    , preferredPrefix_(std::move(prefix))
    , span_(std::move(span))
    , maxEntries_(maxEntries)
    , callbacks_(std::move(callbacks)) {}

RecordedHistory::RecordedHistory(EtcdHistory history, QString source, QString prefix,
                                 Callbacks callbacks)
    : callbacks_(std::move(callbacks))
    , source_(std::move(source))
    , prefix_(std::move(prefix))
    , checkpoints_(std::move(history.checkpoints))
    , entries_(std::move(history.entries)) {}

RecordedHistory::~RecordedHistory() = default;

void RecordedHistory::open(std::optional<int64_t> source) {
    if (location_.isEmpty()) {
        auto summary = std::make_shared<RecordedHistorySummary>();
        summary->location =
            QCoreApplication::translate("RecordedHistory", "etcd's own history, until compacted");
        summary->source = source_;
        summary->prefix = prefix_;
        summary->timesKnown = false;
        summarise(std::move(summary));
        return;
    }
    QString problem;
    if (!source) {
        const auto sources = LockHistoryStore::sourcesIn(location_, problem);
        if (!sources) {
            callbacks_.failed(problem);
            return;
        }
        if (sources->size() > 1) {
            const auto matches = [&](const LockHistoryStore::Source& s) {
                return s.prefix == preferredPrefix_;
            };
            const auto first = std::find_if(sources->begin(), sources->end(), matches);
            if (first != sources->end() &&
                std::find_if(first + 1, sources->end(), matches) == sources->end()) {
                source = first->id;
            } else if (callbacks_.chooseSource) {
                callbacks_.chooseSource(*sources);
                return;
            }
        }
    }
    auto store = LockHistoryStore::openForReading(location_, problem, source);
    if (!store) {
        callbacks_.failed(problem);
        return;
    }
    auto summary = std::make_shared<RecordedHistorySummary>();
    if (!read(*store, *summary)) {
        callbacks_.failed(store->error());
        return;
    }
    sourceId_ = store->source().id;
    summary->partial = span_.namesSpan() || summary->cutBefore || summary->cutAfter;
    summary->maxEntries = maxEntries_;
    summary->location = store->location().shown;
    summary->source = QString::fromStdString(store->source().name);
    summary->prefix = QString::fromStdString(store->prefix());
    summarise(std::move(summary));
}

void RecordedHistory::openSpan(LockHistoryStore::Filter span) {
    if (location_.isEmpty() || !sourceId_) {
        callbacks_.failed(QCoreApplication::translate(
            "RecordedHistory", "only a recording that was opened has spans to open"));
        return;
    }
    span_ = std::move(span);
    // What was read goes first: an hour held twice while the next is read would be 3.4 GB.
    summary_.reset();
    checkpoints_ = {};
    entries_ = {};
    entrySeqs_ = {};
    if (span_.namesStart() && callbacks_.previewed) {
        QString problem;
        // A failure here is said by open() below, which reads the same store.
        if (auto store = LockHistoryStore::openForReading(location_, problem, sourceId_))
            if (const StoredReplay stored = span_.sinceRevision
                                                ? replayStoredAt(*store, *span_.sinceRevision)
                                                : replayStoredAt(*store, *span_.since);
                stored.locks) {
                callbacks_.previewed(momentOf(0, *stored.locks), stored.at);
            }
    }
    open(sourceId_);
}

std::optional<LockHistoryStore::Filter>
RecordedHistory::interval(LockHistoryStore& store, const std::vector<HistoryCheckpoint>& marks,
                          RecordedHistorySummary& summary) const {
    LockHistoryStore::Filter interval;
    // From the last checkpoint at or before the start (a replay of the span's first moment
    // starts there) to the first past the end.
    const auto around = span_.namesSpan() ? LockHistoryStore::marksAround(marks, span_)
                                          : LockHistoryStore::MarksAround{};
    if (around.start)
        interval.fromSeq = marks[*around.start].seq;
    if (around.end)
        interval.toSeq = marks[*around.end].seq;
    // Seqs bound the count from above (every source of a store takes them from one order): most
    // often that settles it without counting.
    const int64_t limit = static_cast<int64_t>(maxEntries_);
    const int64_t end = interval.toSeq.value_or(store.lastSeq().value_or(0) + 1);
    if (end - interval.fromSeq.value_or(0) <= limit)
        return interval;
    // Counted a checkpoint interval at a time, from the start the span names (the part up to
    // where the count reaches maxEntries_), else from its end back (the last part): a replay
    // needs a checkpoint to start from, so at least one interval, however long.
    const std::size_t first = around.start.value_or(0);
    const std::size_t past = around.end.value_or(marks.size());
    const auto countOf = [&](std::size_t i) {
        return store.countEntries(marks[i].seq,
                                  i + 1 < past ? std::optional(marks[i + 1].seq) : interval.toSeq);
    };
    int64_t total = 0;
    if (span_.namesStart()) {
        for (std::size_t i = first; i < past; ++i) {
            const auto count = countOf(i);
            if (!count)
                return std::nullopt;
            if (i > first && total + *count > limit) {
                interval.toSeq = marks[i].seq;
                summary.cutAfter = marks[i].at;
                break;
            }
            total += *count;
        }
        return interval;
    }
    for (std::size_t i = past; i-- > first;) {
        const auto count = countOf(i);
        if (!count)
            return std::nullopt;
        if (i + 1 < past && total + *count > limit) {
            interval.fromSeq = marks[i + 1].seq;
            summary.cutBefore = marks[i + 1].at;
            break;
        }
        total += *count;
    }
    return interval;
}

bool RecordedHistory::read(LockHistoryStore& store, RecordedHistorySummary& summary) {
    const auto marks = store.checkpointMarks();
    if (!marks || !store.readLastEntry())
        return false;
    if (!marks->empty())
        summary.recordedFrom = marks->front().at;
    summary.recordedUntil = store.lastWrittenAt();
    const auto part = interval(store, *marks, summary);
    if (!part)
        return false;
    // With the one after the end: a moment at its revision replays from it, as the whole
    // recording does (its keys say what the anomalies recorded after it at that revision say).
    auto checkpoints = store.checkpoints(
        part->fromSeq, part->toSeq ? std::optional(*part->toSeq + 1) : std::nullopt);
    std::vector<int64_t> seqs;
    auto entries = checkpoints ? store.entries(*part, &seqs) : std::nullopt;
    if (!entries)
        return false;
    checkpoints_ = std::move(*checkpoints);
    entries_ = std::move(*entries);
    entrySeqs_ = std::move(seqs);
    return true;
}

void RecordedHistory::summarise(std::shared_ptr<RecordedHistorySummary> summary) {
    firstEntryMoment_ = 0;
    summary->moments.reserve(entries_.size() + 1);
    if (!checkpoints_.empty()) {
        RecordedMoment start;
        start.revision = checkpoints_.front().revision;
        start.at = checkpoints_.front().at;
        start.start = true;
        summary->moments.push_back(start);
        firstEntryMoment_ = 1;
    }
    for (const auto& entry : entries_) {
        RecordedMoment moment;
        if (const auto* event = std::get_if<etcd::LockEvent>(&entry)) {
            moment = {event->revision,
                      event->observedAt,
                      event->kind,
                      false,
                      event->lock,
                      event->kind == etcd::LockEventKind::Acquired ? event->waited : std::nullopt,
                      nullptr};
        } else if (const auto* gap = std::get_if<HistoryGap>(&entry)) {
            moment = {gap->revision, gap->until, std::nullopt, false, {}, std::nullopt, nullptr};
            ++summary->gaps;
        } else {
            const auto& anomaly = std::get<HistoryAnomaly>(entry);
            ++summary->anomalyChanges;
            moment = {anomaly.revision,
                      anomaly.at,
                      std::nullopt,
                      false,
                      anomaly.change.lock,
                      std::nullopt,
                      std::make_shared<const etcd::AnomalyChange>(anomaly.change)};
        }
        summary->moments.push_back(std::move(moment));
    }
    if (summary->timesKnown)
        summary->holds = holdSpansOf(checkpoints_.empty() ? nullptr : &checkpoints_.front(),
                                     entries_, maxTimelineLocks, maxTimelineSpans);
    summary_ = summary;
    callbacks_.opened(std::move(summary));
}

void RecordedHistory::replay(std::size_t index) {
    if (!summary_ || index >= summary_->moments.size())
        return;
    const int64_t revision = summary_->moments[index].revision;
    auto replayed = replayAt(checkpoints_, entries_, revision, etcd::RecipeOverride::Auto,
                             entrySeqs_.empty() ? nullptr : &entrySeqs_);
    auto moment = replayed ? momentOf(index, *replayed) : std::make_shared<ReplayedMoment>();
    moment->moment = index;
    moment->revision = revision;
    callbacks_.replayed(std::move(moment));
}

std::shared_ptr<ReplayedMoment> RecordedHistory::momentOf(std::size_t index,
                                                          const ReplayedLocks& locks) {
    auto moment = std::make_shared<ReplayedMoment>();
    moment->moment = index;
    moment->revision = locks.revision;
    moment->state = locks.state();
    moment->graph = etcd::WaitForGraph::of(moment->state.locks);
    moment->inGap = locks.inGap;
    return moment;
}

void RecordedHistory::report(std::size_t from, std::size_t to) {
    if (!callbacks_.reported || !summary_)
        return;
    LockHistoryReport::Builder span;
    for (std::size_t moment = std::max(from, firstEntryMoment_);
         moment <= to && moment - firstEntryMoment_ < entries_.size(); ++moment)
        span.add(entries_[moment - firstEntryMoment_]);
    callbacks_.reported(std::make_shared<const LockHistoryReport>(span.finish()), from, to);
}

std::optional<std::size_t> nextMoment(const std::vector<RecordedMoment>& moments, std::size_t from,
                                      const std::function<bool(const RecordedMoment&)>& wanted) {
    for (std::size_t i = from + 1; i < moments.size(); ++i)
        if (wanted(moments[i]))
            return i;
    return std::nullopt;
}

std::optional<std::size_t> momentAt(const std::vector<RecordedMoment>& moments,
                                    std::chrono::system_clock::time_point at) {
    if (moments.empty())
        return std::nullopt;
    const auto after = std::upper_bound(
        moments.begin(), moments.end(), at,
        [](std::chrono::system_clock::time_point t, const RecordedMoment& m) { return t < m.at; });
    return after == moments.begin() ? 0 : static_cast<std::size_t>(after - moments.begin()) - 1;
}

std::optional<std::size_t> longestWaitMoment(const std::vector<RecordedMoment>& moments) {
    std::optional<std::size_t> longest;
    for (std::size_t i = 0; i < moments.size(); ++i)
        if (moments[i].waited && (!longest || *moments[i].waited > *moments[*longest].waited))
            longest = i;
    return longest;
}

} // namespace lockscope
