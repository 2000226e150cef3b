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
    summary->partial = spanned() || summary->cutBefore;
    summary->location = store->location().shown;
    summary->source = QString::fromStdString(store->source().name);
    summary->prefix = QString::fromStdString(store->prefix());
    summarise(std::move(summary));
}

void RecordedHistory::openSpan(LockHistoryStore::Filter span) {
    if (location_.isEmpty() || !sourceId_)
        return;
    span_ = std::move(span);
    if ((span_.since || span_.sinceRevision) && callbacks_.previewed) {
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

bool RecordedHistory::spanned() const {
    return span_.since || span_.until || span_.sinceRevision || span_.untilRevision;
}

LockHistoryStore::Filter RecordedHistory::interval(const std::vector<HistoryCheckpoint>& marks,
                                                   std::optional<int64_t> lastSeq,
                                                   RecordedHistorySummary& summary) const {
    LockHistoryStore::Filter interval;
    if (spanned()) {
        // From the last checkpoint at or before the start (a replay of the span's first moment
        // starts there) to the first past the end.
        const auto around = LockHistoryStore::marksAround(marks, span_);
        if (around.start)
            interval.fromSeq = marks[*around.start].seq;
        if (around.end)
            interval.toSeq = marks[*around.end].seq;
    }
    // Seqs count a file's entries exactly; on PostgreSQL several sources' interleave by blocks,
    // so there the count is an upper bound and less than maxEntries_ is read.
    const int64_t end = interval.toSeq.value_or(lastSeq.value_or(0) + 1);
    const int64_t limit = static_cast<int64_t>(maxEntries_);
    if (end - interval.fromSeq.value_or(0) <= limit)
        return interval;
    // The first checkpoint leaving at most maxEntries_, else the last before the end: a replay
    // needs one, however long its interval.
    const auto before = std::partition_point(marks.begin(), marks.end(),
                                             [&](const auto& mark) { return mark.seq < end; });
    auto start = std::partition_point(marks.begin(), before,
                                      [&](const auto& mark) { return mark.seq < end - limit; });
    if (start == before && start != marks.begin())
        --start;
    if (start != before &&
        (interval.fromSeq ? start->seq > *interval.fromSeq : start != marks.begin())) {
        interval.fromSeq = start->seq;
        summary.cutBefore = start->at;
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
    const LockHistoryStore::Filter part = interval(*marks, store.lastSeq(), summary);
    // With the one after the end: a moment at its revision replays from it, as the whole
    // recording does (its keys say what the anomalies recorded after it at that revision say).
    auto checkpoints =
        store.checkpoints(part.fromSeq, part.toSeq ? std::optional(*part.toSeq + 1) : std::nullopt);
    std::vector<int64_t> seqs;
    auto entries = checkpoints ? store.entries(part, &seqs) : std::nullopt;
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
    std::vector<HistoryEntry> span;
    for (std::size_t moment = std::max(from, firstEntryMoment_);
         moment <= to && moment - firstEntryMoment_ < entries_.size(); ++moment)
        span.push_back(entries_[moment - firstEntryMoment_]);
    callbacks_.reported(std::make_shared<const LockHistoryReport>(span), from, to);
}

std::optional<std::size_t> nextMoment(const std::vector<RecordedMoment>& moments, std::size_t from,
                                      const std::function<bool(const RecordedMoment&)>& wanted) {
    for (std::size_t i = from + 1; i < moments.size(); ++i)
        if (wanted(moments[i]))
            return i;
    return std::nullopt;
}

std::optional<std::size_t> longestWaitMoment(const std::vector<RecordedMoment>& moments) {
    std::optional<std::size_t> longest;
    for (std::size_t i = 0; i < moments.size(); ++i)
        if (moments[i].waited && (!longest || *moments[i].waited > *moments[*longest].waited))
            longest = i;
    return longest;
}

} // namespace lockscope
