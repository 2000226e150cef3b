// lockscope-bench: our lock figures beside etcd's floor, measured side by side in one run.
#include "figures.h"
#include "machine_speed.h"
#include "process/huge_page_heap.h"
#include "process/local_cluster.h"

#include <QApplication>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

using namespace lockscope::bench;

namespace {

struct Target {
    std::string what;
    double value, limit;
    std::string unit;
};

const Samples& find(const std::vector<Samples>& all, const std::string& name) {
    for (const auto& s : all)
        if (s.name == name)
            return s;
    static const Samples none;
    return none;
}

const std::vector<std::string> figureGroups = {
    "floor", "locks",  "anchor", "monitor", "gui",      "window", "large",   "replot",
    "stage", "filter", "graph",  "history", "snapshot", "record", "clusters"};
// Groups only --only runs: they take long.
const std::vector<std::string> longGroups = {"soak"};

int usage() {
    std::fputs("usage: lockscope-bench [--quick] [--only GROUP,...] [--endpoints host:port,...] "
               "[--json FILE] [--history-postgres URL] [--history-minutes N] [--history-dir DIR]\n"
               "  Starts its own etcd unless --endpoints is given; --quick takes under a "
               "minute.\n"
               "  --only measures only the named groups of figures: floor, locks (acquire and "
               "handoff,\n"
               "  with their floors), anchor (Go's Mutex in-process, and etcdctl), monitor, gui\n"
               "  (event to model), window (on 10k locks), large (the window on a million keys),\n"
               "  replot, stage (frames while the lab\n"
               "  runs 200 workers on 10 locks), filter (the lock list's filter on 1M locks),\n"
               "  graph (the wait-for graph on 1M lock keys, in memory), history (a recording\n"
               "  written to SQLite beside the lock table's apply of the same events; also to\n"
               "  PostgreSQL with --history-postgres postgresql://user:password@host/dbname;\n"
               "  then a recording of --history-minutes at 1k events/s, 60 by default (a day,\n"
               "  1440, takes some 15 GB: --history-dir DIR says where, and keeps it), opened),\n"
               "  snapshot (lockscopectl snapshot, --json and text, beside etcdctl get, -w json\n"
               "  and text, whole processes on 100k lock keys), record (lockscopectl record\n"
               "  as a process at 5k events/s: events lost, its CPU, bytes per event),\n"
               "  clusters (threads and memory each idle cluster of 1000 lock keys adds, as a\n"
               "  Workspace, as a cluster of one window and as a window; event to model on two\n"
               "  clusters beside a third that is stopped).\n"
               "  soak (only when named: the window under the lab's chaos for --soak-minutes,\n"
               "  60 by default; prints its memory and CPU slopes).\n",
               stderr);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    lockscope::process::restartWithHugePageHeap(argv); // first: nothing done yet is lost
    bool quick = false;
    std::string endpoints, jsonFile, historyPostgres, historyDir;
    int soakMinutes = 60;
    int historyMinutes = 0;
    std::vector<std::string> only = figureGroups;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--endpoints") && i + 1 < argc)
            endpoints = argv[++i];
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonFile = argv[++i];
        else if (!std::strcmp(argv[i], "--history-postgres") && i + 1 < argc)
            historyPostgres = argv[++i];
        else if (!std::strcmp(argv[i], "--history-dir") && i + 1 < argc)
            historyDir = argv[++i];
        else if (!std::strcmp(argv[i], "--history-minutes") && i + 1 < argc &&
                 (historyMinutes = std::atoi(argv[++i])) > 0)
            continue;
        else if (!std::strcmp(argv[i], "--soak-minutes") && i + 1 < argc &&
                 (soakMinutes = std::atoi(argv[++i])) > 0)
            continue;
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
            only.clear();
            std::stringstream list(argv[++i]);
            for (std::string group; std::getline(list, group, ',');) {
                if (std::find(figureGroups.begin(), figureGroups.end(), group) ==
                        figureGroups.end() &&
                    std::find(longGroups.begin(), longGroups.end(), group) == longGroups.end()) {
                    std::fprintf(stderr, "lockscope-bench: no figure group \"%s\"\n",
                                 group.c_str());
                    return usage();
                }
                only.push_back(group);
            }
        } else
            return usage();
    }
    const auto wanted = [&](const char* group) {
        return std::find(only.begin(), only.end(), group) != only.end();
    };
    const Scale scale =
        quick ? Scale{100,
                      30,
                      {1, 10},
                      {{10, 100}, {100, 100}},
                      std::chrono::seconds(2),
                      {1000, 10},
                      {{20000, 1}},
                      100000}
              : Scale{500,
                      200,
                      {1, 10, 100},
                      {{10, 100}, {100, 100}, {1000, 100}, {100000, 10}, {1000000, 1}},
                      std::chrono::seconds(10),
                      {10000, 10},
                      {{100000, 10}, {1000000, 1}},
                      1000000};
    // The machine's own speed, before anything else runs and again at the end.
    const double referenceBeforeMs = referenceLoopMs();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // the GUI figures need no display
    const QApplication application(argc, argv);

    std::unique_ptr<etcd::LocalCluster> sandbox;
    etcd::ClientOptions options;
    if (endpoints.empty()) {
        sandbox = std::make_unique<etcd::LocalCluster>(1);
        if (auto error = sandbox->start(); !error.ok()) {
            std::fprintf(stderr, "lockscope-bench: %s\n", error.message.c_str());
            return 1;
        }
        options.endpoints = sandbox->endpoints();
    } else {
        options.endpoints.clear();
        std::stringstream list(endpoints);
        for (std::string e; std::getline(list, e, ',');)
            options.endpoints.push_back(e);
    }
    options.commandTimeout = std::chrono::seconds(30);
    auto client = etcd::Client::create(options);
    if (!client) {
        std::fprintf(stderr, "lockscope-bench: %s\n", client.error().message.c_str());
        return 1;
    }

    std::vector<Samples> all;
    if (wanted("floor"))
        all = measureFloor(**client, scale);
    if (wanted("locks"))
        for (auto& s : measureLocks(**client, scale))
            all.push_back(std::move(s));
    if (wanted("anchor"))
        for (auto& s : measureGoAnchor(**client, options.endpoints, scale))
            all.push_back(std::move(s));
    const auto loads =
        wanted("monitor") ? measureMonitorLoad(**client, scale) : std::vector<LoadFigure>{};
    const auto eventRuns = wanted("gui") ? measureEventToModel(**client, options, scale)
                                         : std::vector<EventRateFigure>{};
    for (const auto& r : eventRuns) {
        all.push_back(r.eventToWatch);
        all.push_back(r.eventToGuiThread);
        all.push_back(r.eventToModel);
    }
    const auto loadedWindow = wanted("window")
                                  ? std::optional(measureLoadedWindow(**client, options, scale))
                                  : std::nullopt;
    if (loadedWindow) {
        all.push_back(loadedWindow->churn.eventToWatch);
        all.push_back(loadedWindow->churn.eventToGuiThread);
        all.push_back(loadedWindow->churn.eventToModel);
    }
    const auto largeWindows = wanted("large") ? measureLargeWindows(**client, options, scale)
                                              : std::vector<LargeWindowFigure>{};
    for (const auto& w : largeWindows)
        all.push_back(w.filter);
    const auto replot = wanted("replot") ? std::optional(measureReplot()) : std::nullopt;
    if (replot)
        all.push_back(replot->samples);
    const auto stage = wanted("stage") ? std::optional(measureStage(options, scale)) : std::nullopt;
    const auto filter =
        wanted("filter") ? std::optional(measureLockFilter(scale.filterLocks)) : std::nullopt;
    if (filter) {
        all.push_back(filter->filter);
        all.push_back(filter->sort);
        all.push_back(filter->insert);
    }
    const auto graph =
        wanted("graph")
            ? std::optional(measureWaitForGraph(quick ? 25000 : 250000, 4, quick ? 2000 : 20000))
            : std::nullopt;
    if (graph) {
        all.push_back(graph->tableApply);
        all.push_back(graph->graphApply);
        all.push_back(graph->expiryIndexed);
        all.push_back(graph->expiryWalk);
    }
    if (stage) {
        all.push_back(stage->frames);
        all.push_back(stage->frameCpu);
    }
    const auto soak = wanted("soak")
                          ? std::optional(measureSoak(options, std::chrono::minutes(soakMinutes)))
                          : std::nullopt;

    // 5k events/s, the rate a recorder must keep up with, for 30 s (3 s --quick).
    const RecorderFigure record = wanted("record")
                                      ? measureRecorder(**client, options.endpoints, 5000,
                                                        std::chrono::seconds(quick ? 3 : 30))
                                      : RecorderFigure{};

    // Three clusters of their own, 1000 lock keys each: what a window of several clusters holds.
    const ClusterCostFigure clusterCost =
        wanted("clusters") ? measureClusterCost(3, {1000, 1}) : ClusterCostFigure{};
    const ClusterIsolationFigure isolation =
        wanted("clusters") ? measureClusterIsolation(quick ? 60 : 400) : ClusterIsolationFigure{};
    if (isolation.ran) {
        all.push_back(isolation.alone);
        all.push_back(isolation.beside);
    }

    const double referenceAfterMs = referenceLoopMs();
    std::printf("machine: a reference loop took %.1f ms at the start and %.1f ms at the end (the "
                "same work in every build: a higher figure is a slower or busier machine)\n",
                referenceBeforeMs, referenceAfterMs);
    std::printf("%-44s %6s %9s %9s %9s\n", "figure", "n", "p50 ms", "p90 ms", "p99 ms");
    for (const auto& s : all)
        std::printf("%-44s %6zu %9.3f %9.3f %9.3f\n", s.name.c_str(), s.ms.size(), s.p(50), s.p(90),
                    s.p(99));
    for (const auto& l : loads)
        std::printf("monitor: load %7d locks x %3d keys %9.3f s %8.1f MB resident, %6.0f B a key; "
                    "heap %.1f MB, %.0f B a key\n",
                    l.shape.locks, l.shape.keysPerLock, l.seconds, l.residentMb,
                    l.residentMb * 1024 * 1024 / l.shape.keys(), l.heapMb,
                    l.heapMb * 1024 * 1024 / l.shape.keys());
    for (const auto& r : eventRuns)
        std::printf("gui: %dk events/s asked, %5.0f committed/s, longest GUI stall %7.1f ms "
                    "(an idle thread's %.1f ms), window repainted whole %d times\n",
                    r.eventsPerSecond / 1000, r.achievedPerSecond, r.longestStallMs, r.idleStallMs,
                    r.wholeWindowRepaints);

    if (loadedWindow)
        std::printf("window: %d locks x %d keys listed in %.3f s (longest GUI stall %.1f ms, an "
                    "idle thread's %.1f ms; the first paint before connecting %.1f ms), "
                    "%.1f MB resident; then %5.0f committed/s, longest GUI stall %.1f ms (an idle "
                    "thread's %.1f ms)\n",
                    loadedWindow->shape.locks, loadedWindow->shape.keysPerLock,
                    loadedWindow->load.fullListSeconds, loadedWindow->load.longestStallMs,
                    loadedWindow->load.idleStallMs, loadedWindow->load.firstPaintStallMs,
                    loadedWindow->residentMb, loadedWindow->churn.achievedPerSecond,
                    loadedWindow->churn.longestStallMs, loadedWindow->churn.idleStallMs);

    for (const auto& w : largeWindows)
        std::printf(
            "large window: %7d locks x %2d keys: first rows %.3f s, all listed %.3f s, "
            "longest GUI stall %.1f ms (an idle thread's %.1f ms; the first paint before "
            "connecting %.1f ms), %.1f MB resident (%.0f B a key), heap %.1f MB "
            "(%.0f B a key); a prefix of no keys chosen then: empty in %.3f s, longest "
            "GUI stall %.1f ms\n",
            w.shape.locks, w.shape.keysPerLock, w.load.firstRowsSeconds, w.load.fullListSeconds,
            w.load.longestStallMs, w.load.idleStallMs, w.load.firstPaintStallMs, w.residentMb,
            w.residentMb * 1024 * 1024 / w.shape.keys(), w.heapMb,
            w.heapMb * 1024 * 1024 / w.shape.keys(), w.switchAwaySeconds, w.switchAwayStallMs);

    // In memory and on a local file, apart from etcd: measured where it is printed.
    if (wanted("snapshot")) {
        const MonitorShape shape = quick ? MonitorShape{1000, 10} : MonitorShape{10000, 10};
        const auto snapshot = measureSnapshotCommand(**client, options.endpoints, shape, 5);
        auto print = [&](const char* ours, const char* theirs, double target,
                         const SnapshotCommandFigure::Pair& p) {
            std::printf("snapshot: %d lock keys (%d locks, %d leases): lockscopectl %s %.3f s "
                        "(CPU %.3f s, peak %.0f MB), etcdctl %s %.3f s (CPU %.3f s, peak %.0f "
                        "MB): %.2f x etcdctl (target %.1f x), peak %.2f x\n",
                        shape.keys(), shape.locks, snapshot.leases, ours, p.oursSeconds,
                        p.oursCpuSeconds, p.oursPeakMb, theirs, p.etcdctlSeconds,
                        p.etcdctlCpuSeconds, p.etcdctlPeakMb, p.oursSeconds / p.etcdctlSeconds,
                        target, p.oursPeakMb / p.etcdctlPeakMb);
        };
        if (snapshot.ran) {
            print("snapshot --json", "get --prefix -w json", 1.2, snapshot.json);
            print("snapshot (text)", "get --prefix (text)", 1.0, snapshot.text);
        }
    }
    std::optional<HistoryReplayFigure> replay;
    if (wanted("history")) {
        const auto history = measureHistoryStore(quick ? 25000 : 250000, historyPostgres);
        std::printf("history: %lld lock events: the lock table applies %.0f events/s in memory, "
                    "a recording writes %.0f events/s (SQLite, WAL, a transaction per 200 ms), "
                    "%.0f bytes per event%s\n",
                    static_cast<long long>(history.events), history.applyPerSecond,
                    history.file.perSecond, history.file.bytesPerEvent,
                    history.file.failed ? " (a write FAILED)" : "");
        if (history.postgres)
            std::printf("history: the same into PostgreSQL: %.0f events/s, %.0f bytes per event "
                        "(tables and indexes)%s\n",
                        history.postgres->perSecond, history.postgres->bytesPerEvent,
                        history.postgres->failed ? " (a write FAILED)" : "");
        else
            std::printf("history: PostgreSQL not measured (--history-postgres URL names a "
                        "database for it)\n");
        replay = measureHistoryReplay(historyMinutes ? historyMinutes
                                      : quick        ? 5
                                                     : 60,
                                      QString::fromStdString(historyDir));
        std::printf("history: %d minutes at 1000 lock events/s written in %.0f s (%.0f events/s, "
                    "%.0f MB on disk%s%s)%s\n",
                    replay->minutes, replay->writeSeconds,
                    static_cast<double>(replay->events) / std::max(replay->writeSeconds, 1e-9),
                    replay->fileMb,
                    replay->keptAt.isEmpty() ? "" : ", kept: ", qPrintable(replay->keptAt),
                    replay->openedMinutes
                        ? qPrintable(QString(": too long to open at once, its last %1 minutes "
                                             "opened (%2 moments)")
                                         .arg(*replay->openedMinutes, 0, 'f', 1)
                                         .arg(replay->openedMoments))
                        : "");
        std::printf("history: %d minutes at 1000 lock events/s (%lld events, a checkpoint a "
                    "minute) opened for replay in %.1f s (its last tenth alone in %.1f s), "
                    "holding %.0f MB of heap, its timeline %zu holds (%zu more not drawn); a "
                    "moment's "
                    "locks p50 %.1f ms, p99 %.1f ms, slowest %.1f ms over %zu moments spread "
                    "over it; read from the store by its checkpoint's interval alone, p50 %.1f "
                    "ms, p99 %.1f ms%s\n",
                    replay->minutes, static_cast<long long>(replay->events), replay->openSeconds,
                    replay->tenthOpenSeconds, replay->heapMb, replay->timelineHolds,
                    replay->timelineHoldsLeftOut, replay->frame.p(50), replay->frame.p(99),
                    replay->frame.p(100), replay->frame.ms.size(), replay->stored.p(50),
                    replay->stored.p(99), replay->ran ? "" : " (FAILED)");
    }
    if (record.ran)
        std::printf("record: %d events/s asked, %.0f committed/s (%lld etcd events, %lld lock "
                    "events on the live path); recorded %lld of %lld, %lld lost, %lld gaps; "
                    "lockscopectl record's CPU %.1f %% of a core (target 25 %%), %.0f bytes per "
                    "event; both had the last event %.2f s after it; %s on SIGTERM\n",
                    record.eventsPerSecond, record.achievedPerSecond,
                    static_cast<long long>(record.etcdEvents),
                    static_cast<long long>(record.liveEvents),
                    static_cast<long long>(record.recordedEvents),
                    static_cast<long long>(record.liveEvents),
                    static_cast<long long>(record.liveEvents - record.recordedEvents),
                    static_cast<long long>(record.gaps), record.cpuPercent, record.bytesPerEvent,
                    record.catchUpSeconds,
                    record.exitedCleanly ? "exited cleanly" : "did NOT exit cleanly");
    for (const auto& [what, cost] :
         {std::pair{"a Workspace", clusterCost.workspace},
          std::pair{"a cluster of one window (target 2 threads, 30 MB)", clusterCost.view},
          std::pair{"a window", clusterCost.window}})
        if (cost.ran)
            std::printf("clusters: %d idle clusters of %d lock keys, each as %s: %+.1f threads, "
                        "%+.1f MB resident\n",
                        clusterCost.clusters, clusterCost.keys, what, cost.threads,
                        cost.residentMb);
    if (graph)
        std::printf("graph: %d locks x %d keys: built in %.3f s, %.1f MB resident; a deadlock of "
                    "%zu sessions found in %.1f ms; with 1000 waits, %zu deadlock and %zu root "
                    "blockers found in %.3f ms; an event costs %.2f x the table's apply alone "
                    "(p50)\n",
                    graph->locks, graph->keysPerLock, graph->buildSeconds, graph->residentMb,
                    graph->deadlockSessions, graph->cycleSearchMs, graph->sparseDeadlocks,
                    graph->sparseRootBlockers, graph->sparseQuestionsMs,
                    graph->graphApply.p(50) / std::max(1e-9, graph->tableApply.p(50)));
    if (soak) {
        std::printf("soak: %.0f min, lab of 100 workers with chaos: after %.1f min, resident "
                    "%+.3f MB a minute (%.1f to %.1f MB), heap in use %+.3f MB a minute, CPU %+.3f "
                    "%% a minute (%.1f %% at the end)\n",
                    soak->minutes, soak->settledMinutes, soak->residentMbPerMinute,
                    soak->samples.empty() ? 0 : soak->samples.front().residentMb,
                    soak->samples.empty() ? 0 : soak->samples.back().residentMb,
                    soak->heapMbPerMinute, soak->cpuPercentPerMinute,
                    soak->samples.empty() ? 0 : soak->samples.back().cpuPercent);
        std::printf("soak: the graphs' points (their day, planned) %+.3f MB a minute (%.2f MB at "
                    "the end), subtracted: unplanned resident %+.3f MB a minute, heap %+.3f MB a "
                    "minute\n",
                    soak->graphsMbPerMinute,
                    soak->samples.empty() ? 0 : soak->samples.back().graphsMb,
                    soak->unplannedResidentMbPerMinute, soak->unplannedHeapMbPerMinute);
    }

    std::vector<Target> targets;
    if (wanted("locks")) {
        const double txn = find(all, "floor: bare Txn (an acquire's own Txn)").p(50);
        const Samples& putToWatch = find(all, "floor: put to watch event");
        const double acquire = find(all, "ours: uncontended acquire, open session").p(50);
        targets.push_back({"uncontended acquire p50 / bare Txn p50", acquire / txn, 1.2, "x"});
        targets.push_back({"handoff p50 (1 waiting) / put-to-watch p50",
                           find(all, "ours: handoff, 1 waiting").p(50) / putToWatch.p(50), 1.3,
                           "x"});
        for (int waiters : scale.waiters) {
            const std::string waiting = std::to_string(waiters) + " waiting";
            targets.push_back({"handoff p99 (" + waiting + ") / put-to-watch p99 beside it",
                               find(all, "ours: handoff, " + waiting).p(99) /
                                   find(all, putToWatchBeside(waiters)).p(99),
                               2, "x"});
        }
        const double goHandoff = find(all, "Go: handoff, 1 waiting (in-process)").p(50);
        if (goHandoff > 0)
            targets.push_back({"handoff p50 (1 waiting) / Go's in-process handoff p50",
                               find(all, "ours: handoff, 1 waiting").p(50) / goHandoff, 0.8, "x"});
    }
    for (const auto& l : loads)
        if (l.shape.keys() == 1000000) {
            const std::string what = "1M lock keys (" + std::to_string(l.shape.locks) +
                                     " locks x " + std::to_string(l.shape.keysPerLock) + "): ";
            targets.push_back({what + "load time", l.seconds, 5.0, "s"});
            // The heap, not the resident set: after the figures before it, the monitor reuses
            // what they freed, and its resident set hardly grows.
            targets.push_back({what + "heap in use", l.heapMb, 800, "MB"});
        }
    if (!eventRuns.empty()) {
        const double model = find(all, "gui: event to model, 5k events/s").p(99);
        const double bare = find(all, "floor: event to bare watch, 5k events/s").p(99);
        const double handedOn =
            find(all, "floor: event to bare watch, then the GUI thread, 5k events/s").p(99);
        std::printf(
            "gui at 5k events/s, p99: bare watch %.2f ms; handed on to the GUI thread "
            "%.2f ms (%.2f x the bare watch); event to model %.2f ms (%.2f x the hand-on)\n",
            bare, handedOn, handedOn / bare, model, model / handedOn);
        // Against the floors beside them: the same events handed on to the GUI thread with
        // nothing done there, and a thread that does nothing else.
        for (const auto& r : eventRuns) {
            const std::string rate = std::to_string(r.eventsPerSecond / 1000) + "k events/s";
            targets.push_back({"event to model p99 / the hand-on p99 at " + rate,
                               r.eventToModel.p(99) / r.eventToGuiThread.p(99), 1.2, "x"});
            targets.push_back({"longest GUI stall / an idle thread's at " + rate,
                               r.longestStallMs / r.idleStallMs, 1.5, "x"});
        }
    }
    if (loadedWindow) {
        const std::string what =
            "window on " + std::to_string(loadedWindow->shape.locks) + " locks: ";
        targets.push_back({what + "longest GUI stall while listing",
                           loadedWindow->load.longestStallMs, 16, "ms"});
        targets.push_back(
            {what + "event to model p99 / the hand-on p99",
             loadedWindow->churn.eventToModel.p(99) / loadedWindow->churn.eventToGuiThread.p(99),
             1.5, "x"});
        targets.push_back({what + "longest GUI stall / an idle thread's while events arrive",
                           loadedWindow->churn.longestStallMs / loadedWindow->churn.idleStallMs,
                           1.5, "x"});
    }
    for (const auto& w : largeWindows) {
        const std::string what = "window on " + std::to_string(w.shape.locks) + " locks x " +
                                 std::to_string(w.shape.keysPerLock) + ": ";
        targets.push_back({what + "first rows after connecting", w.load.firstRowsSeconds, 1, "s"});
        targets.push_back({what + "longest GUI stall / an idle thread's while loading",
                           w.load.longestStallMs / w.load.idleStallMs, 2, "x"});
        targets.push_back({what + "filter, slowest step", w.filter.p(100), 100, "ms"});
        targets.push_back({what + "resident memory", w.residentMb, 400, "MB"});
        // Heaps side by side: a resident set's growth reads low where an earlier figure left
        // freed memory behind, and the monitor's figure comes after many.
        for (const auto& l : loads)
            if (l.shape.locks == w.shape.locks && l.shape.keysPerLock == w.shape.keysPerLock) {
                targets.push_back(
                    {what + "heap / the monitor's heap", w.heapMb / l.heapMb, 3, "x"});
                targets.push_back({what + "all listed / the monitor's load",
                                   w.load.fullListSeconds / l.seconds, 1.5, "x"});
            }
    }
    if (replot) {
        std::printf("replot: a day of 8 series at 10 Hz holds %.1f MB of points (%.1f MB resident "
                    "growth while filling)\n",
                    replot->pointsMb, replot->residentMb);
        targets.push_back(
            {"replot p90, 8 series x a day at 10 Hz", replot->samples.p(90), 8, "ms"});
    }
    if (filter) {
        std::printf("filter: the lock list took %d locks in %.3f s, %.1f MB resident\n",
                    filter->locks, filter->listSeconds, filter->residentMb);
        targets.push_back({"filter " + std::to_string(filter->locks) + " locks, slowest step",
                           filter->filter.p(100), 100, "ms"});
        targets.push_back({"sort " + std::to_string(filter->locks) + " locks, slowest step",
                           filter->sort.p(100), 100, "ms"});
        targets.push_back(
            {"1000-lock page among " + std::to_string(filter->locks) + " locks, slowest",
             filter->insert.p(100), 100, "ms"});
    }
    if (stage) {
        std::printf("stage: %d lanes, %.0f acquisitions/s, %zu frames, longest GUI stall %.1f ms\n",
                    stage->lanes, stage->acquisitionsPerSecond, stage->frames.ms.size(),
                    stage->longestStallMs);
        targets.push_back(
            {"stage frame p99, lab of 200 workers on 10 locks", stage->frames.p(99), 16, "ms"});
        targets.push_back({"stage frame CPU p99, lab of 200 workers on 10 locks",
                           stage->frameCpu.p(99), 8, "ms"});
    }
    if (replay && replay->ran) {
        const std::string what = "replay of " + std::to_string(replay->minutes) + " min: ";
        // A scrubber at 30 frames a second; any moment chosen shown within a second.
        targets.push_back({what + "a moment's locks p99", replay->frame.p(99), 1000.0 / 30, "ms"});
        targets.push_back({what + "a moment's locks, slowest", replay->frame.p(100), 1000, "ms"});
        targets.push_back(
            {what + "a moment read from the store, slowest", replay->stored.p(100), 1000, "ms"});
    }
    if (record.ran) {
        targets.push_back({"record at 5k events/s: lock events lost",
                           static_cast<double>(record.liveEvents - record.recordedEvents), 0, ""});
        targets.push_back({"record at 5k events/s: recorder CPU", record.cpuPercent, 25, " %"});
    }
    if (isolation.ran)
        targets.push_back({"event to model p99, beside a stopped cluster / without it",
                           isolation.beside.p(99) / isolation.alone.p(99), 1.2, " x"});
    if (isolation.ran && isolation.hungLive)
        std::printf("clusters: the stopped cluster's view still said live\n");
    for (const auto& [what, cost] : {std::pair{"Workspace", clusterCost.workspace},
                                     std::pair{"in one window", clusterCost.view}})
        if (cost.ran) {
            targets.push_back(
                {std::string("threads per idle cluster (") + what + ")", cost.threads, 2, ""});
            targets.push_back({std::string("resident per idle cluster of 1000 keys (") + what + ")",
                               cost.residentMb, 30, " MB"});
        }
    std::printf("\n%-52s %9s %9s  %s\n", "target", "measured", "limit", "");
    if (soak)
        targets.push_back({"soak: resident growth once settled, less graphs",
                           soak->unplannedResidentMbPerMinute, 0.1, " MB/min"});
    for (const auto& t : targets)
        std::printf("%-52s %8.2f%s %8.2f%s  %s\n", t.what.c_str(), t.value, t.unit.c_str(), t.limit,
                    t.unit.c_str(), t.value <= t.limit ? "met" : "MISSED");

    if (!jsonFile.empty()) {
        std::ofstream out(jsonFile);
        out << "{\"reference_loop_ms\":{\"start\":" << referenceBeforeMs
            << ",\"end\":" << referenceAfterMs << "},\"figures\":[";
        for (std::size_t i = 0; i < all.size(); ++i)
            out << (i ? "," : "") << "{\"name\":\"" << all[i].name
                << "\",\"n\":" << all[i].ms.size() << ",\"p50_ms\":" << all[i].p(50)
                << ",\"p90_ms\":" << all[i].p(90) << ",\"p99_ms\":" << all[i].p(99) << "}";
        out << "],\"monitor_load\":[";
        for (std::size_t i = 0; i < loads.size(); ++i)
            out << (i ? "," : "") << "{\"locks\":" << loads[i].shape.locks
                << ",\"keys_per_lock\":" << loads[i].shape.keysPerLock
                << ",\"seconds\":" << loads[i].seconds << ",\"resident_mb\":" << loads[i].residentMb
                << ",\"heap_mb\":" << loads[i].heapMb << "}";
        out << "],\"gui_event_runs\":[";
        for (std::size_t i = 0; i < eventRuns.size(); ++i)
            out << (i ? "," : "") << "{\"events_per_second\":" << eventRuns[i].eventsPerSecond
                << ",\"committed_per_second\":" << eventRuns[i].achievedPerSecond
                << ",\"longest_gui_stall_ms\":" << eventRuns[i].longestStallMs
                << ",\"longest_idle_thread_stall_ms\":" << eventRuns[i].idleStallMs
                << ",\"whole_window_repaints\":" << eventRuns[i].wholeWindowRepaints << "}";
        out << "],\"window\":";
        if (loadedWindow)
            out << "{\"locks\":" << loadedWindow->shape.locks
                << ",\"keys_per_lock\":" << loadedWindow->shape.keysPerLock
                << ",\"first_full_list_seconds\":" << loadedWindow->load.fullListSeconds
                << ",\"longest_gui_stall_listing_ms\":" << loadedWindow->load.longestStallMs
                << ",\"longest_idle_thread_stall_listing_ms\":" << loadedWindow->load.idleStallMs
                << ",\"longest_gui_stall_first_paint_ms\":" << loadedWindow->load.firstPaintStallMs
                << ",\"resident_mb\":" << loadedWindow->residentMb
                << ",\"committed_per_second\":" << loadedWindow->churn.achievedPerSecond
                << ",\"longest_gui_stall_ms\":" << loadedWindow->churn.longestStallMs
                << ",\"longest_idle_thread_stall_ms\":" << loadedWindow->churn.idleStallMs << "}";
        else
            out << "null";
        out << ",\"large_windows\":[";
        for (std::size_t i = 0; i < largeWindows.size(); ++i)
            out << (i ? "," : "") << "{\"locks\":" << largeWindows[i].shape.locks
                << ",\"keys_per_lock\":" << largeWindows[i].shape.keysPerLock
                << ",\"first_rows_seconds\":" << largeWindows[i].load.firstRowsSeconds
                << ",\"full_list_seconds\":" << largeWindows[i].load.fullListSeconds
                << ",\"longest_gui_stall_ms\":" << largeWindows[i].load.longestStallMs
                << ",\"longest_idle_thread_stall_ms\":" << largeWindows[i].load.idleStallMs
                << ",\"longest_gui_stall_first_paint_ms\":"
                << largeWindows[i].load.firstPaintStallMs
                << ",\"resident_mb\":" << largeWindows[i].residentMb
                << ",\"heap_mb\":" << largeWindows[i].heapMb
                << ",\"switch_away_seconds\":" << largeWindows[i].switchAwaySeconds
                << ",\"switch_away_longest_gui_stall_ms\":" << largeWindows[i].switchAwayStallMs
                << "}";
        out << "]";
        out << ",\"stage\":";
        if (stage)
            out << "{\"lanes\":" << stage->lanes
                << ",\"acquisitions_per_second\":" << stage->acquisitionsPerSecond
                << ",\"frame_p50_ms\":" << stage->frames.p(50)
                << ",\"frame_p99_ms\":" << stage->frames.p(99)
                << ",\"longest_gui_stall_ms\":" << stage->longestStallMs << "}";
        else
            out << "null";
        out << ",\"filter\":";
        if (filter)
            out << "{\"locks\":" << filter->locks << ",\"list_seconds\":" << filter->listSeconds
                << ",\"slowest_step_ms\":" << filter->filter.p(100)
                << ",\"slowest_sort_ms\":" << filter->sort.p(100)
                << ",\"insert_1000_ms\":" << filter->insert.p(100)
                << ",\"resident_mb\":" << filter->residentMb << "}";
        else
            out << "null";
        out << ",\"targets\":[";
        for (std::size_t i = 0; i < targets.size(); ++i)
            out << (i ? "," : "") << "{\"what\":\"" << targets[i].what
                << "\",\"measured\":" << targets[i].value << ",\"limit\":" << targets[i].limit
                << ",\"met\":" << (targets[i].value <= targets[i].limit ? "true" : "false") << "}";
        out << "]}\n";
    }
    return 0;
}
