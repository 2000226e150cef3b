// Reading a recording by interval, on a real SQLite recording of several checkpoints, a gap and
// anomalies: replayStoredAt's locks equal a replay of the whole recording at every revision and
// at times between them, and a span opened for the replay window replays each of its moments
// as the whole recording does.
#include "app/core/lock_history_store.h"
#include "app/core/recorded_history.h"
#include "app/core/stored_replay.h"
#include "support/qtest_registry.h"

#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);

// Each lock's keys in queue order, with lease and create revision, and its anomalies.
std::string describe(const etcd::LockMonitorState& state) {
    std::string text;
    for (const auto& [name, queue] : state.locks) {
        text += name + ":";
        for (const auto& key : queue->keys)
            text += " " + key.key + "(" + std::to_string(key.lease) + "," +
                    std::to_string(key.createRevision) + ")";
        text += "\n";
    }
    for (const auto& [name, anomalies] : state.anomalies)
        for (const auto& anomaly : anomalies)
            text += "! " + anomaly.key + " " + etcd::anomalyKindName(anomaly.kind) + "\n";
    return text;
}

// What an entry is, in a line: enough to tell entries apart.
std::string textOf(const std::vector<HistoryEntry>& entries) {
    std::string text;
    for (const auto& entry : entries) {
        if (const auto* event = std::get_if<etcd::LockEvent>(&entry))
            text += std::string(etcd::lockEventKindName(event->kind)) + " " + event->key + " " +
                    std::to_string(event->revision);
        else if (const auto* gap = std::get_if<HistoryGap>(&entry))
            text += "gap " + std::to_string(gap->revision);
        else
            text += "anomaly " + std::get<HistoryAnomaly>(entry).change.anomaly.key + " " +
                    std::to_string(std::get<HistoryAnomaly>(entry).revision);
        text += "\n";
    }
    return text;
}

// What a RecordedHistory answered, for the test to look at.
struct Answers {
    std::shared_ptr<const RecordedHistorySummary> summary;
    std::shared_ptr<const ReplayedMoment> replayed;
    QString failure;
    RecordedHistory::Callbacks callbacks() {
        return {[this](auto opened) { summary = std::move(opened); },
                [this](const QString& problem) { failure = problem; },
                [this](auto moment) { replayed = std::move(moment); }};
    }
};

// Each moment of what `part` opened, after its start, replays as the same moment (revision and
// time) of the whole recording `all` opened.
void expectSameMoments(RecordedHistory& part, const Answers& partly, RecordedHistory& all,
                       const Answers& whole) {
    const auto& moments = partly.summary->moments;
    const auto& wholeMoments = whole.summary->moments;
    for (std::size_t i = 1; i < moments.size(); ++i) {
        part.replay(i);
        QVERIFY(partly.replayed && partly.replayed->moment == i);
        const auto same =
            std::find_if(wholeMoments.begin(), wholeMoments.end(), [&](const RecordedMoment& m) {
                return m.revision == moments[i].revision && m.at == moments[i].at;
            });
        QVERIFY(same != wholeMoments.end());
        all.replay(static_cast<std::size_t>(same - wholeMoments.begin()));
        QCOMPARE(describe(partly.replayed->state), describe(whole.replayed->state));
    }
}

} // namespace

class StoredReplayTest : public QObject {
    Q_OBJECT
private slots:
    // Three locks, a waiter without a lease coming and going, a lease found gone, a gap and
    // checkpoints every few revisions; revision n recorded at t0 + n seconds.
    void initTestCase() {
        QVERIFY(dir.isValid());
        path = dir.filePath("locks.db");
        {
            QString problem;
            auto store = LockHistoryStore::openForWriting(path, "c", "/locks/", problem);
            QVERIFY2(store, qPrintable(problem));
            etcd::LockTable table;
            table.load({}, revision, t0);
            etcd::AnomaliesByLock seen;
            const auto at = [&] { return t0 + std::chrono::seconds(revision); };
            // As a recorder writes: events, then the anomalies they changed; a checkpoint with
            // the anomalies brought up to date.
            const auto record = [&](const std::vector<etcd::LockEvent>& events) {
                for (const auto& event : events)
                    QVERIFY(store->write(event));
                std::vector<etcd::AnomalyChange> changes;
                etcd::updateAllAnomalies(seen, table.anomalies(), changes);
                for (auto& change : changes)
                    QVERIFY(store->write(HistoryAnomaly{std::move(change), revision, at()}));
            };
            const auto checkpoint = [&](const char* reason) {
                QVERIFY(store->write(
                    HistoryCheckpoint{revision, at(), reason, historyKeysOf(table.locks(), seen)}));
            };
            const auto change = [&](mvccpb::Event::EventType type, const std::string& key,
                                    int64_t lease) {
                mvccpb::Event event;
                event.set_type(type);
                auto& kv = *event.mutable_kv();
                kv.set_key(key);
                kv.set_lease(lease);
                kv.set_create_revision(++revision);
                kv.set_mod_revision(revision);
                record(table.apply(event, revision, at()));
            };
            checkpoint("start");
            for (int round = 0; round < 12; ++round) {
                const std::string lock = "/locks/job" + std::to_string(round % 3);
                change(mvccpb::Event::PUT, lock + "/" + std::to_string(100 + round), 0x100 + round);
                if (round % 4 == 1)
                    change(mvccpb::Event::PUT, lock + "/stuck", 0); // no lease: an anomaly
                if (round % 4 == 3)                                 // the one put two rounds before
                    change(mvccpb::Event::DELETE,
                           "/locks/job" + std::to_string((round - 2) % 3) + "/stuck", 0);
                if (round == 6) { // a lookup finds a lease gone
                    table.setLeaseExpired(0x100 + 4, true);
                    record({});
                }
                if (round == 8) {
                    QVERIFY(store->write(HistoryGap{at(), at() + 1s, revision, "compacted"}));
                    checkpoint("resync");
                }
                if (round % 3 == 2)
                    checkpoint("periodic");
            }
            QVERIFY2(store->commit(), qPrintable(store->error()));
        }
    }

    void anIntervalReadsAsTheWholeRecordingReplays() {
        QString problem;
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto checkpoints = reader->checkpoints();
        std::vector<int64_t> seqs;
        const auto entries = checkpoints ? reader->entries({}, &seqs) : std::nullopt;
        QVERIFY2(entries, qPrintable(reader->error()));
        QVERIFY(checkpoints->size() >= 5);
        int anomalous = 0;
        for (int64_t at = 1; at <= revision; ++at) {
            const auto whole = replayAt(*checkpoints, *entries, at);
            const StoredReplay stored = replayStoredAt(*reader, at);
            QVERIFY2(stored.read, qPrintable(reader->error()));
            QVERIFY(whole && stored.locks);
            QCOMPARE(describe(stored.locks->state()), describe(whole->state()));
            QCOMPARE(stored.locks->checkpointRevision, whole->checkpointRevision);
            anomalous += !whole->state().anomalies.empty();
            // By time: each revision was recorded at t0 + its number of seconds.
            const StoredReplay byTime =
                replayStoredAt(*reader, t0 + std::chrono::seconds(at) + 500ms);
            QVERIFY(byTime.locks);
            QCOMPARE(byTime.locks->revision, at);
            QCOMPARE(describe(byTime.locks->state()), describe(whole->state()));
        }
        QVERIFY(anomalous > 0);
        // Before the recording began: nothing, and when it began.
        const StoredReplay before = replayStoredAt(*reader, t0 - 1s);
        QVERIFY(before.read && !before.locks && before.first);
        QCOMPARE(before.first->revision, int64_t(1));
    }

    // A span of the recording, opened as the replay window opens one: from the checkpoint at or
    // before its start to the first after its end, each moment as the whole recording has it.
    void aSpanOpensFromTheCheckpointBeforeItToTheOneAfter() {
        Answers whole, span;
        RecordedHistory all(path, whole.callbacks());
        all.open();
        LockHistoryStore::Filter between;
        between.since = t0 + 9500ms;
        between.until = t0 + 13500ms;
        RecordedHistory part(path, span.callbacks(), {}, between);
        part.open();
        QVERIFY2(whole.summary && span.summary, qPrintable(whole.failure + span.failure));
        QVERIFY(!whole.summary->partial && span.summary->partial);
        QVERIFY(span.summary->moments.size() < whole.summary->moments.size());
        // Starts at the checkpoint of revision 5 (recorded at 5 s), ends before the one of 14.
        QVERIFY(span.summary->moments.front().start);
        QCOMPARE(span.summary->moments.front().revision, int64_t(5));
        QCOMPARE(span.summary->moments.back().revision, int64_t(14));
        expectSameMoments(part, span, all, whole);
        // Only an end: from the recording's start to the first checkpoint after it (of 10).
        LockHistoryStore::Filter untilOnly;
        untilOnly.until = t0 + 6500ms;
        Answers early;
        RecordedHistory fromStart(path, early.callbacks(), {}, untilOnly);
        fromStart.open();
        QVERIFY2(early.summary, qPrintable(early.failure));
        QVERIFY(early.summary->partial && !early.summary->moments.empty());
        QCOMPARE(early.summary->moments.front().revision, int64_t(1));
        QCOMPARE(early.summary->moments.back().revision, int64_t(10));
    }

    // More entries than an opened recording may hold: its last part that fits, from a
    // checkpoint, said as cut; another span of the same source opens on asking.
    void aRecordingTooLongToOpenWholeOpensItsLastPart() {
        Answers whole, cut, tiny;
        RecordedHistory all(path, whole.callbacks());
        all.open();
        QVERIFY2(whole.summary, qPrintable(whole.failure));
        QVERIFY(!whole.summary->cutBefore);
        QCOMPARE(whole.summary->recordedFrom, std::optional(t0 + 1s));
        QCOMPARE(whole.summary->recordedUntil, std::optional(whole.summary->moments.back().at));
        const std::size_t limit = whole.summary->moments.size() / 2;
        RecordedHistory last(path, cut.callbacks(), {}, {}, limit);
        last.open();
        QVERIFY2(cut.summary, qPrintable(cut.failure));
        QVERIFY(cut.summary->cutBefore && cut.summary->partial);
        QVERIFY(cut.summary->moments.front().start);
        QCOMPARE(*cut.summary->cutBefore, cut.summary->moments.front().at);
        QVERIFY(cut.summary->moments.size() - 1 <= limit);
        QCOMPARE(cut.summary->moments.back().revision, whole.summary->moments.back().revision);
        QCOMPARE(cut.summary->recordedFrom, whole.summary->recordedFrom);
        // From the first checkpoint that fits: the one before it would have read more.
        QString problem;
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto marks = reader->checkpointMarks();
        QVERIFY(marks && reader->readLastEntry() && reader->lastSeq());
        // Entries and checkpoints share the seqs, 1 to the last.
        const int64_t lastSeq = *reader->lastSeq();
        QCOMPARE(lastSeq, static_cast<int64_t>(whole.summary->moments.size() - 1 + marks->size()));
        const auto from = std::find_if(marks->begin(), marks->end(), [&](const auto& mark) {
            return mark.at == *cut.summary->cutBefore;
        });
        QVERIFY(from != marks->begin() && from != marks->end());
        QCOMPARE(reader->countEntries(from->seq, {}),
                 std::optional(static_cast<int64_t>(cut.summary->moments.size() - 1)));
        QVERIFY(*reader->countEntries(std::prev(from)->seq, {}) > static_cast<int64_t>(limit));
        expectSameMoments(last, cut, all, whole);

        // A span that names its start: from there, up to where the limit is reached.
        Answers ahead;
        LockHistoryStore::Filter fromStart;
        fromStart.sinceRevision = 2;
        RecordedHistory first(path, ahead.callbacks(), {}, fromStart, limit);
        first.open();
        QVERIFY2(ahead.summary, qPrintable(ahead.failure));
        QVERIFY(ahead.summary->cutAfter && !ahead.summary->cutBefore);
        QCOMPARE(ahead.summary->moments.front().revision, int64_t(1));
        QVERIFY(ahead.summary->moments.size() - 1 <= limit);
        const auto upTo = std::find_if(marks->begin(), marks->end(), [&](const auto& mark) {
            return mark.at == *ahead.summary->cutAfter;
        });
        QVERIFY(upTo != marks->end());
        QCOMPARE(reader->countEntries(marks->front().seq, upTo->seq),
                 std::optional(static_cast<int64_t>(ahead.summary->moments.size() - 1)));
        QVERIFY(*reader->countEntries(marks->front().seq, std::next(upTo)->seq) >
                static_cast<int64_t>(limit));
        expectSameMoments(first, ahead, all, whole);

        // A limit below any checkpoint's interval: from the last checkpoint.
        RecordedHistory least(path, tiny.callbacks(), {}, {}, 1);
        least.open();
        QVERIFY(tiny.summary && tiny.summary->cutBefore);
        QCOMPARE(*tiny.summary->cutBefore, marks->back().at);

        // Another part of the same source, asked for after opening: whole, as it fits.
        LockHistoryStore::Filter early;
        early.until = t0 + 4500ms;
        last.openSpan(early);
        QVERIFY(!cut.summary->cutBefore && cut.summary->partial);
        QCOMPARE(cut.summary->moments.front().revision, int64_t(1));
        QCOMPARE(cut.summary->moments.back().revision, int64_t(5));
        expectSameMoments(last, cut, all, whole);
    }

    // A span of revisions or times reads between the checkpoints around it, and still gives
    // every entry the span holds: the same as the whole recording's entries picked by hand.
    void aSpanReadsWhatTheWholeRecordingHoldsInIt() {
        QString problem;
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        const auto all = reader->entries({});
        QVERIFY(all);
        const auto within = [](const HistoryEntry& entry, int64_t from, int64_t to, bool byTime) {
            if (const auto* gap = std::get_if<HistoryGap>(&entry))
                return byTime ? gap->until >= t0 + std::chrono::seconds(from) &&
                                    gap->since <= t0 + std::chrono::seconds(to)
                              : gap->revision >= from && gap->revision <= to;
            const auto [revision, at] = std::visit(
                [](const auto& e) -> std::pair<int64_t, std::chrono::system_clock::time_point> {
                    using E = std::decay_t<decltype(e)>;
                    if constexpr (std::is_same_v<E, etcd::LockEvent>)
                        return {e.revision, e.observedAt};
                    else if constexpr (std::is_same_v<E, HistoryAnomaly>)
                        return {e.revision, e.at};
                    else
                        return {e.revision, e.until};
                },
                entry);
            return byTime ? at >= t0 + std::chrono::seconds(from) &&
                                at <= t0 + std::chrono::seconds(to)
                          : revision >= from && revision <= to;
        };
        int read = 0;
        for (const bool byTime : {false, true})
            for (int64_t from = 0; from <= revision + 1; ++from)
                for (int64_t to = from; to <= revision + 1; ++to) {
                    LockHistoryStore::Filter span;
                    if (byTime) {
                        span.since = t0 + std::chrono::seconds(from);
                        span.until = t0 + std::chrono::seconds(to);
                    } else {
                        span.sinceRevision = from;
                        span.untilRevision = to;
                    }
                    const auto got = reader->entries(span);
                    QVERIFY2(got, qPrintable(reader->error()));
                    std::vector<HistoryEntry> wanted;
                    for (const auto& entry : *all)
                        if (within(entry, from, to, byTime))
                            wanted.push_back(entry);
                    QCOMPARE(textOf(*got), textOf(wanted));
                    read += static_cast<int>(got->size());
                }
        QVERIFY(read > 0);
    }

    // Seqs are the store's, not a source's: a quiet prefix recorded beside a busy one spans many
    // seqs and few entries, and opens whole.
    void aQuietSourceBesideABusyOneOpensWhole() {
        const QString shared = dir.filePath("shared.db");
        QString problem;
        const auto record = [&](const std::string& prefix, int events, int64_t from) {
            auto store = LockHistoryStore::openForWriting(shared, "c", prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(HistoryCheckpoint{
                from, t0 + std::chrono::seconds(from), from == 1 ? "start" : "periodic", {}}));
            for (int i = 1; i <= events; ++i) {
                etcd::LockEvent event{};
                event.kind = etcd::LockEventKind::Enqueued;
                event.lock = prefix + "job";
                event.key = event.lock + "/" + std::to_string(from + i);
                event.lease = from + i;
                event.revision = event.createRevision = from + i;
                event.observedAt = t0 + std::chrono::seconds(from + i);
                QVERIFY(store->write(event));
            }
            QVERIFY(store->commit());
        };
        record("/quiet/", 3, 1);
        record("/busy/", 50, 10);
        record("/quiet/", 3, 100);
        Answers quiet;
        RecordedHistory history(shared, quiet.callbacks(), "/quiet/", {}, 10);
        history.open();
        QVERIFY2(quiet.summary, qPrintable(quiet.failure));
        QVERIFY(!quiet.summary->cutBefore && !quiet.summary->partial);
        QCOMPARE(quiet.summary->moments.size(), std::size_t{7}); // the start and six events
    }

private:
    QTemporaryDir dir;
    QString path;
    int64_t revision = 1;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(StoredReplayTest)
#include "stored_replay_test.moc"
