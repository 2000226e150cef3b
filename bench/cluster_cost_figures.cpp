// What each open cluster costs the desktop's process, idle: clusters opened one after another,
// each on an etcd of its own holding `shape`'s lock keys, with threads and resident memory
// taken after each has loaded and settled. Three times: as Workspaces alone (a connection, its
// lock watch and models, its status refresh), as clusters added to one main window (each with
// its pages and graphs: what the desktop pays per cluster), and as whole main windows (an upper
// bound).
#include "app/core/connection_options.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/gui/cluster_view.h"
#include "app/gui/main_window.h"
#include "app/gui/recent_prefixes.h"
#include "figures.h"
#include "lab_window.h"
#include "local_etcds.h"
#include "lock_key_fill.h"
#include "resident_memory.h"
#include "run_events.h"
#include "scratch_settings.h"

#include <QDir>
#include <QSettings>
#include <memory>

namespace lockscope::bench {

namespace {

constexpr const char* prefix = "/bench/cluster-cost/";
constexpr std::chrono::seconds settle{2};

int threadCount() {
    return static_cast<int>(
        QDir("/proc/self/task").entryList(QDir::Dirs | QDir::NoDotAndDotDot).size());
}

// Opens one cluster after another with `open` (which returns once it is live and loaded); the
// threads and megabytes each added, on average.
template <class Open>
ClusterCost costOf(const std::vector<etcd::ClientOptions>& clusters, Open open) {
    runEventsFor(settle);
    const int threadsBefore = threadCount();
    const double residentBefore = residentMb();
    for (const auto& options : clusters) {
        if (!open(options))
            return {};
        runEventsFor(settle);
    }
    const double opened = static_cast<double>(clusters.size());
    return {true, (threadCount() - threadsBefore) / opened,
            (residentMb() - residentBefore) / opened};
}

} // namespace

ClusterCostFigure measureClusterCost(int clusters, const MonitorShape& shape) {
    ClusterCostFigure figure;
    figure.clusters = clusters;
    figure.keys = shape.keys();
    auto started = startLocalEtcds(clusters, "clusters");
    if (!started)
        return figure;
    const auto& options = started->options;
    for (const auto& cluster : options) {
        auto client = etcd::Client::create(cluster);
        if (!client)
            return figure;
        fillLockKeys(**client, prefix, shape);
    }
    const auto loaded = [&](const LockWatch& watch) {
        return watch.live() && watch.state().locks.size() == static_cast<std::size_t>(shape.locks);
    };

    std::vector<std::unique_ptr<Workspace>> workspaces;
    figure.workspace = costOf(options, [&](const etcd::ClientOptions& cluster) {
        auto& workspace = workspaces.emplace_back(std::make_unique<Workspace>(cluster));
        workspace->startRefreshing();
        workspace->lockWatch()->setPrefix(prefix);
        runEventsUntil([&] { return loaded(*workspace->lockWatch()); }, std::chrono::seconds(30));
        return loaded(*workspace->lockWatch());
    });
    for (auto& workspace : workspaces)
        workspace->endAndWait();
    workspaces.clear();

    const ScratchSettings settings;
    {
        MainWindow window;
        window.resize(1600, 1000);
        window.show();
        figure.view = costOf(options, [&](const etcd::ClientOptions& cluster) {
            QSettings remembered; // opens on the prefix, as a cluster used before does
            RecentPrefixes(remembered).rememberUsedOn(cluster.endpoints, prefix);
            ConnectionOptions connection;
            connection.client = cluster;
            ClusterView* view = window.addCluster(connection);
            runEventsUntil([&] { return view->lockWatch() && loaded(*view->lockWatch()); },
                           std::chrono::seconds(30));
            return view->lockWatch() && loaded(*view->lockWatch());
        });
    } // waits for its Workspaces' ends
    std::vector<std::unique_ptr<MainWindow>> windows;
    figure.window = costOf(options, [&](const etcd::ClientOptions& cluster) {
        auto& window = windows.emplace_back(std::make_unique<MainWindow>());
        showLive(*window, cluster, prefix);
        runEventsUntil([&] { return loaded(*window->lockWatch()); }, std::chrono::seconds(30));
        return loaded(*window->lockWatch());
    });
    windows.clear(); // each waits for its Workspace's end
    return figure;
}

} // namespace lockscope::bench
