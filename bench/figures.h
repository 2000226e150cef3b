#pragma once

#include "etcdclient/client.h"
#include "samples.h"
#include "window_load.h"

#include <QString>
#include <map>
#include <optional>
#include <string>

namespace lockscope::bench {

// The pause before a sample that follows idle time (a handoff after its queue formed, and the
// floor's put-to-watch): the same for both, so both start equally warm.
constexpr std::chrono::milliseconds pause{5};
// The TTL of the sessions the lock figures open: long enough to outlive any figure.
constexpr int64_t sessionTtlSeconds = 30;

// A lock prefix to load: `locks` locks of `keysPerLock` contenders each.
struct MonitorShape {
    int locks;
    int keysPerLock;
    int keys() const { return locks * keysPerLock; }
};

struct Scale {
    int rounds;               // samples per latency figure
    int anchorRounds;         // samples per Go anchor figure: each settles the queue first
    std::vector<int> waiters; // handoff queue lengths
    std::vector<MonitorShape> monitorShapes; // prefixes for the snapshot-load figure
    // How long the writer writes at each rate of the event-to-model figures.
    std::chrono::seconds eventRun;
    MonitorShape windowShape;                    // the prefix of the loaded-window figure
    std::vector<MonitorShape> largeWindowShapes; // the window on a million keys
    int filterLocks;                             // rows of the lock-list filter figure
};

// etcd's own floor: what any client pays. (The floors the targets divide by are measured
// beside their figures in measureLocks.)
std::vector<Samples> measureFloor(etcd::Client& client, const Scale& scale);
// The name of the put-to-watch floor taken beside the handoffs with `waiters` waiting ("floor:
// put to watch event" beside 1).
std::string putToWatchBeside(int waiters);
// Our Session and Mutex, with the bare Txn an acquire sends measured alongside.
std::vector<Samples> measureLocks(etcd::Client& client, const Scale& scale);
// The Go anchor: the handoff between Go's own Mutexes in one process (bench/go/main.go) on
// `endpoints`, and between ours and `etcdctl lock` both ways. Each part is left out (with a
// message on stderr) when Go or etcdctl cannot be run.
std::vector<Samples> measureGoAnchor(etcd::Client& client,
                                     const std::vector<std::string>& endpoints, const Scale& scale);

struct LoadFigure {
    MonitorShape shape;
    double seconds;
    double residentMb; // growth of the process's resident set while loading
    double heapMb;     // growth of the heap in use (heapInUseMb): what the monitor holds
};
// A LockMonitor loading a prefix of `keys` lock keys, each figure on a fresh prefix.
std::vector<LoadFigure> measureMonitorLoad(etcd::Client& client, const Scale& scale);

struct EventRateFigure {
    int eventsPerSecond;      // asked of the writer
    double achievedPerSecond; // what etcd committed
    Samples eventToWatch;     // a committed write to a bare watch on the prefix: the floor
    Samples eventToGuiThread; // and from there handed to the GUI thread, with nothing done
    Samples eventToModel;     // a committed write to the GUI thread's models showing it
    double longestStallMs;    // of the GUI thread while the events arrived
    double idleStallMs;       // meanwhile, of a thread that does nothing else: the floor
    int wholeWindowRepaints;  // meanwhile: the main tabs painted whole (a layout climbed to them)
};
// LockScope's main window (offscreen, in the running QApplication) and a bare watch watching a
// prefix while a writer puts and deletes lock keys under it at 1k and then 5k events a second.
std::vector<EventRateFigure>
measureEventToModel(etcd::Client& writer, const etcd::ClientOptions& window, const Scale& scale);

struct WindowLoadFigure {
    MonitorShape shape;
    WindowLoad load;
    double residentMb;     // growth of the resident set, from before the window to the end
    EventRateFigure churn; // then, at 1k events/s on some of those locks
};
// LockScope's main window on a prefix of `scale.windowShape` lock keys held and queued for by
// real leases: how long until it lists every lock, then event to model under churn beside its
// floor, as measureEventToModel.
WindowLoadFigure measureLoadedWindow(etcd::Client& client, const etcd::ClientOptions& options,
                                     const Scale& scale);

struct LargeWindowFigure {
    MonitorShape shape;
    WindowLoad load;
    double residentMb; // growth of the resident set while loading
    double heapMb;     // growth of the heap in use: what the window (its monitor too) holds
    Samples filter;    // each step of typing a name into the filter box, then clearing it
    // Then a prefix of no keys chosen: how long until the list is empty and live again, and the
    // GUI thread's longest stall meanwhile (what it frees of the million keys it showed).
    double switchAwaySeconds;
    double switchAwayStallMs;
};
// LockScope's main window on each of `scale.largeWindowShapes` (lock keys held by real leases),
// each on a fresh prefix: its first rows, its full list, its stalls, and its filter box.
std::vector<LargeWindowFigure>
measureLargeWindows(etcd::Client& client, const etcd::ClientOptions& options, const Scale& scale);

struct ReplotFigure {
    Samples samples;   // each QCustomPlot replot, decimating included
    double pointsMb;   // what the plot holds: LatencyPlot::memoryBytes
    double residentMb; // growth of the process's resident set while filling the plot
};
// A LatencyPlot of 8 series, each a day at 10 Hz, offscreen at 1200 x 400: the time of each
// QCustomPlot replot (in the running QApplication), and the memory a day takes.
ReplotFigure measureReplot();

struct WaitForGraphFigure {
    int locks = 0;
    int keysPerLock = 0;
    double buildSeconds = 0;  // the graph from every lock of a loaded table
    double residentMb = 0;    // the graph's growth of the resident set
    double cycleSearchMs = 0; // deadlocks() with every session in one ring
    std::size_t deadlockSessions = 0;
    Samples tableApply; // the lock table's apply of one event, alone
    Samples graphApply; // the same with the graph kept from the touched locks
    // An expiry's locks (LockMonitor::changedLocksOf): from the table's lease index, and by
    // walking every lock for the lease's keys, as it was done before the index.
    Samples expiryIndexed;
    Samples expiryWalk;
    double sparseQuestionsMs = 0; // deadlocks() and rootBlockers() with 1000 waits
    std::size_t sparseDeadlocks = 0;
    std::size_t sparseRootBlockers = 0;
};
// The wait-for graph in memory on `locks` x `keysPerLock` Go lock keys whose sessions wait on
// each other round the whole prefix, `events` waiters joining and leaving.
WaitForGraphFigure measureWaitForGraph(int locks, int keysPerLock, int events);

// The lock events written to a recording (LockHistoryStore), as a recorder writes them.
struct HistoryWriteFigure {
    double perSecond = 0;     // events written a second
    double bytesPerEvent = 0; // what the store grew by, over the events
    bool failed = false;      // a write failed: the figures are of less than every event
};
struct HistoryStoreFigure {
    int64_t events = 0;
    double applyPerSecond = 0; // the lock table applying the watch's events, in memory
    HistoryWriteFigure file;   // into an SQLite file
    std::optional<HistoryWriteFigure> postgres; // into PostgreSQL, when a URL was given
};
// A recording of `rounds` handoffs (three lock events each) on 100 locks, beside the lock table's
// own apply of them, both in memory on this thread, into a file in a temporary folder and, when
// `postgresUrl` is not empty, into that database (its source "bench").
HistoryStoreFigure measureHistoryStore(int rounds, const std::string& postgresUrl);

// A recording of `minutes` at 1000 lock events a second (100 locks, a checkpoint a minute) in an
// SQLite file, opened for replay as the desktop opens one, then replayed at moments spread over
// it: how long each moment's locks take, as a scrubber's frames.
struct HistoryReplayFigure {
    int minutes = 0;
    int64_t events = 0;
    double writeSeconds = 0; // writing it, as a recorder would (generating the events included)
    double fileMb = 0;
    QString keptAt; // the file, when kept
    double openSeconds = 0;
    std::size_t openedMoments = 0;
    // Too long to open whole: how much of its end was opened (RecordedHistory's cutBefore).
    std::optional<double> openedMinutes;
    double tenthOpenSeconds = 0; // its last tenth alone (a span, as --since opens it)
    double heapMb = 0;           // what the opened recording holds
    // The holds its timeline draws (RecordedHistorySummary::holds), and those past its limit.
    std::size_t timelineHolds = 0, timelineHoldsLeftOut = 0;
    Samples frame{"replay: a moment's locks", {}};
    // The locks at a moment read from the store by its checkpoint's interval alone, as
    // `lockscopectl history --at` reads them: what a recording of any length costs a moment.
    Samples stored{"replay: a moment's locks read from the store", {}};
    bool ran = false;
};
// `minutes` of recording, written into a folder made in `where` and kept there (to open in the
// desktop), or in the system's temporary folder and removed when `where` is empty. A day takes
// some 15 GB.
HistoryReplayFigure measureHistoryReplay(int minutes, const QString& where);

// `lockscopectl snapshot PREFIX --json` beside `etcdctl get --prefix PREFIX -w json` on the
// same prefix, and the text forms (`snapshot PREFIX` beside `get --prefix PREFIX`), timed as
// whole processes, alternately (the medians of `runs` each).
struct SnapshotCommandFigure {
    struct Pair {
        double oursSeconds = 0, etcdctlSeconds = 0;       // wall
        double oursCpuSeconds = 0, etcdctlCpuSeconds = 0; // user + system
        double oursPeakMb = 0, etcdctlPeakMb = 0;         // peak resident
    };
    MonitorShape shape;
    int leases = 0;
    Pair json, text;
    bool ran = false; // false when etcdctl or lockscopectl could not be run (said on stderr)
};
SnapshotCommandFigure measureSnapshotCommand(etcd::Client& client,
                                             const std::vector<std::string>& endpoints,
                                             const MonitorShape& shape, int runs);

// `lockscopectl record PREFIX --to FILE` as a child process while a LockEventWriter changes
// PREFIX at `eventsPerSecond` for `duration`, beside a LockMonitor of the bench's own (the live
// path): what it recorded of what the live path saw, its CPU and the file's bytes per event.
struct RecorderFigure {
    int eventsPerSecond = 0;      // asked of the writer
    double achievedPerSecond = 0; // what etcd committed
    int64_t etcdEvents = 0;       // the writes etcd committed: its watch events
    int64_t liveEvents = 0;       // the lock events the live path saw
    int64_t recordedEvents = 0;   // the lock events in the file (not recovered)
    int64_t gaps = 0;             // in the file: times the recorder was not live
    double cpuPercent = 0;        // the recorder's, of one core, while the writer wrote
    double catchUpSeconds = 0;    // after the last write, until both had it
    double bytesPerEvent = 0;     // the file's size over the events recorded
    bool exitedCleanly = false;   // SIGTERM ended it with exit code 0
    bool ran = false;             // false when lockscopectl could not be run (said on stderr)
};
RecorderFigure measureRecorder(etcd::Client& client, const std::vector<std::string>& endpoints,
                               int eventsPerSecond, std::chrono::steady_clock::duration duration);

struct LockFilterFigure {
    int locks;
    double listSeconds; // the lock list (model and sorting proxy) taking every lock
    Samples filter;     // each step of typing a name into the filter box, then clearing it
    Samples sort;       // a click on every other header in turn, then on Name
    Samples insert;     // runs of 1000 new locks after the others (pages of a paged listing)
    double residentMb;  // growth of the resident set: the state and the list
};
// The Locks page's lock list (LockListModel under LockListProxy under a QTableView shown
// offscreen, sorted by name) on `locks` locks, built in memory: the GUI thread's own cost of
// listing, filtering, sorting and taking new locks, each step until the view has painted it.
LockFilterFigure measureLockFilter(int locks);

struct StageFigure {
    Samples frames;        // each paint of the stage
    Samples frameCpu;      // the GUI thread's CPU time in each (without waits to be scheduled)
    double longestStallMs; // of the GUI thread meanwhile
    double acquisitionsPerSecond;
    int lanes;
};
// LockScope's main window (offscreen) on its Stage tab while the contention lab runs 200
// workers on 10 locks through it: the stage's frame (paint) times and the longest GUI stall.
StageFigure measureStage(const etcd::ClientOptions& options, const Scale& scale);

struct SoakFigure {
    struct Sample {
        double minute;
        double residentMb;
        double heapMb;     // malloc's bytes in use
        double graphsMb;   // the graphs' points (the day they keep: growth that is planned)
        double cpuPercent; // of one core, over the interval before the sample
    };
    double minutes = 0;
    std::vector<Sample> samples; // every 10 s
    double settledMinutes = 0;   // the slopes are of the samples after this
    double residentMbPerMinute = 0;
    double heapMbPerMinute = 0;
    double graphsMbPerMinute = 0;
    // Resident and heap growth less the graphs' own: the growth nobody planned.
    double unplannedResidentMbPerMinute = 0;
    double unplannedHeapMbPerMinute = 0;
    double cpuPercentPerMinute = 0;
};
// LockScope's main window (offscreen) on the Locks page while the contention lab runs 100
// workers on 10 locks with chaos (stalls, crashes, slow holds) through it for `duration`: its
// resident memory and CPU over time, and their slopes once settled. What grows without bound
// shows as a slope above 0.
SoakFigure measureSoak(const etcd::ClientOptions& options, std::chrono::minutes duration);

// What each open cluster adds to the process, on average over the clusters opened.
struct ClusterCost {
    bool ran = false;
    double threads = 0;
    double residentMb = 0;
};
struct ClusterCostFigure {
    int clusters = 0;
    int keys = 0;          // lock keys in each cluster
    ClusterCost workspace; // a Workspace alone: connection, lock watch, models, status refresh
    ClusterCost view;      // a cluster added to one window: its pages and graphs too
    ClusterCost window;    // a whole main window each: an upper bound
};
// `clusters` etcds of their own, each holding `shape`'s lock keys, opened one after another
// idle: as Workspaces, as clusters of one main window, then as main windows (offscreen).
ClusterCostFigure measureClusterCost(int clusters, const MonitorShape& shape);

struct ClusterIsolationFigure {
    bool ran = false;
    Samples alone;         // event to model on two healthy clusters, a third absent
    Samples beside;        // the same with the third open and its member stopped
    bool hungLive = false; // the stopped cluster's view still said live: it should not
};
// Event to model on two healthy clusters' Workspaces (`rounds` puts, alternately), without a
// third cluster and beside a third whose every member is stopped (SIGSTOP), in alternating
// blocks.
ClusterIsolationFigure measureClusterIsolation(int rounds);

} // namespace lockscope::bench
