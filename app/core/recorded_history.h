#pragma once

#include "app/core/etcd_history.h"
#include "app/core/history_replay.h"
#include "app/core/hold_spans.h"
#include "app/core/lock_history.h"
#include "app/core/lock_history_report.h"
#include "app/core/lock_history_store.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <QObject>
#include <QString>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace lockscope {

// A moment of a recording that a replay can stop at: its start (the first checkpoint), then
// each recorded event, gap or anomaly change, in recorded order.
struct RecordedMoment {
    int64_t revision = 0;
    std::chrono::system_clock::time_point at; // when the event was seen; a gap's end
    std::optional<etcd::LockEventKind> kind;  // an event's
    bool start = false;
    std::string lock;                                // the event's or anomaly's
    std::optional<std::chrono::milliseconds> waited; // an Acquired event's wait
    // An anomaly's change; shared, as a recording of millions of moments has few of them.
    std::shared_ptr<const etcd::AnomalyChange> anomaly;
};

// What a recording holds, for a replay's scrubber.
struct RecordedHistorySummary {
    QString location; // as shown: the path, or the URL without its password
    QString source;   // the cluster recorded
    QString prefix;
    // Only a span of the recording was read (RecordedHistory's `span`): from the checkpoint at
    // or before its start to the first one after its end.
    bool partial = false;
    // More than the history's maxEntries to read: only the part from this checkpoint's time on
    // was read (the last that fits), nothing before it; or, when the span named a start, only
    // the part from there up to this checkpoint's time (the first that fits).
    std::optional<std::chrono::system_clock::time_point> cutBefore, cutAfter;
    std::size_t maxEntries = 0; // the history's
    // When the whole recording begins (its first checkpoint) and its last entry: the times a span
    // can be chosen between. Nothing for etcd's own history.
    std::optional<std::chrono::system_clock::time_point> recordedFrom, recordedUntil;
    std::vector<RecordedMoment> moments;
    int gaps = 0;
    int anomalyChanges = 0; // anomalies appearing or going
    // etcd's own history keeps no times: a moment's time then only paces a replay.
    bool timesKnown = true;
    // Who held each lock when, for the replay's timeline (none without times).
    HoldSpans holds;
};

// The locks at one moment of a recording.
struct ReplayedMoment {
    std::size_t moment = 0;
    int64_t revision = 0;
    etcd::LockMonitorState state; // without TTLs or values, which a recording does not keep
    etcd::WaitForGraph graph;     // who waited for whom, of `state`
    std::optional<HistoryGap> inGap;
};

// A recording opened for replay, on a thread of its own (never the GUI thread: reading and
// replaying wait on the disk or the server, and replaying walks the events). Opens its store
// read-only and reads it (or the span asked for) once, up to maxEntries: each replay() then
// answers with the locks at one moment.
// The callbacks run on its thread: a window posts what they carry to its own (postGuarded).
class RecordedHistory : public QObject {
    Q_OBJECT
public:
    struct Callbacks {
        std::function<void(std::shared_ptr<const RecordedHistorySummary>)> opened;
        std::function<void(const QString& problem)> failed;
        std::function<void(std::shared_ptr<const ReplayedMoment>)> replayed;
        std::function<void(std::shared_ptr<const LockHistoryReport>, std::size_t from,
                           std::size_t to)>
            reported = {};
        // The store holds several sources and none was chosen: open(id) one of them.
        std::function<void(const std::vector<LockHistoryStore::Source>&)> chooseSource = {};
        // openSpan's start, read from the store by its interval alone before the span is
        // (`at`: when the recording reached it; the moment's index means nothing yet).
        std::function<void(std::shared_ptr<const ReplayedMoment>,
                           std::chrono::system_clock::time_point at)>
            previewed = {};
    };

    // What an opened recording may hold: an entry read holds some 430 B, so this is about an
    // hour at 1000 lock events a second in 1.7 GB. A day of that is 86 M entries.
    static constexpr std::size_t defaultMaxEntries = 4'000'000;
    // The timeline's lanes and bars: more locks than a screen has lanes tell nothing, and a
    // span's bars are kept on the GUI thread (some 200 B each).
    static constexpr std::size_t maxTimelineLocks = 200;
    static constexpr std::size_t maxTimelineSpans = 500'000;

    // `prefix`: when the store holds several sources, the one of this prefix, if just one is.
    // `span`: only the moments between its times or revisions (its lock is not looked at), read
    // from the checkpoint at or before its start to the first one after its end, so that an hour
    // of a day's recording costs an hour; the whole recording when it names neither end.
    // `maxEntries`: a recording or span holding more is read from the first checkpoint that
    // leaves at most that many (or the last one before its end), and says so (cutBefore); a
    // span that names its start is read from there up to where that many are (cutAfter).
    RecordedHistory(QString location, Callbacks callbacks, std::string prefix = {},
                    LockHistoryStore::Filter span = {}, std::size_t maxEntries = defaultMaxEntries);
    // etcd's own history, read already (readEtcdHistory), of the locks under `prefix` of the
    // cluster `source`.
    RecordedHistory(EtcdHistory history, QString source, QString prefix, Callbacks callbacks);
    ~RecordedHistory() override;

    // On its thread: reads the recording, of `source` when given (opened, failed, or
    // chooseSource when it holds several and none is chosen).
    void open(std::optional<int64_t> source = std::nullopt);
    // On its thread: reads `span` of the source opened instead (opened or failed, as open()).
    // The locks at its start come first (previewed), read by one checkpoint's interval: a
    // moment of a day shows in a fraction of a second, its span in seconds.
    void openSpan(LockHistoryStore::Filter span);
    // On its thread: the locks at moment `index` of the summary (replayed; nothing before
    // open() succeeded or for an index past the end).
    void replay(std::size_t index);
    // On its thread: the report (lockscopectl history --report's) of the events between moments
    // `from` and `to`, both included (reported).
    void report(std::size_t from, std::size_t to);

private:
    void summarise(std::shared_ptr<RecordedHistorySummary> summary);

    // Reads the checkpoints and entries of span_ (all of them without one), at most maxEntries_
    // of them, into `summary`'s times; false when failed.
    bool read(LockHistoryStore& store, RecordedHistorySummary& summary);
    // The part of the recording a read covers, in seqs: span_'s, then cut to maxEntries_ (said
    // in `summary`); nothing when a count failed.
    std::optional<LockHistoryStore::Filter> interval(LockHistoryStore& store,
                                                     const std::vector<HistoryCheckpoint>& marks,
                                                     RecordedHistorySummary& summary) const;
    // What the window shows of `locks`, moment `index` of the summary (here, not on the GUI
    // thread: the graph walks every waiting key).
    static std::shared_ptr<ReplayedMoment> momentOf(std::size_t index, const ReplayedLocks& locks);

    const QString location_; // empty for etcd's own history
    const std::string preferredPrefix_;
    LockHistoryStore::Filter span_;
    const std::size_t maxEntries_ = defaultMaxEntries;
    const Callbacks callbacks_;
    std::optional<int64_t> sourceId_; // the source read, once open
    QString source_, prefix_;
    std::vector<HistoryCheckpoint> checkpoints_;
    std::vector<HistoryEntry> entries_;
    // Each entry's seq, when read from a store: a replay then walks one checkpoint's interval.
    std::vector<int64_t> entrySeqs_;
    std::shared_ptr<const RecordedHistorySummary> summary_;
    std::size_t firstEntryMoment_ = 0; // the moment of entries_[0]: 1 after a start moment
};

// The next moment after `from` that `wanted` accepts, or nothing.
std::optional<std::size_t> nextMoment(const std::vector<RecordedMoment>& moments, std::size_t from,
                                      const std::function<bool(const RecordedMoment&)>& wanted);
// The last moment at or before `at` (the first when all are after it); nothing when there are
// none. Found by halves: moments in recorded order are in the order of their times, unless the
// recorder's clock stepped back (then a moment near it).
std::optional<std::size_t> momentAt(const std::vector<RecordedMoment>& moments,
                                    std::chrono::system_clock::time_point at);
// The moment of the longest recorded wait (an Acquired event's), or nothing.
std::optional<std::size_t> longestWaitMoment(const std::vector<RecordedMoment>& moments);

} // namespace lockscope
