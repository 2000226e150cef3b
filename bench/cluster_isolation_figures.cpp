// One cluster's hang must not slow another's view: event to model (a put of a new lock until the
// Workspace's lock watch holds it, on the GUI thread they share) on two healthy clusters,
// alternately, with a third cluster absent, and with the third open and every member of it
// stopped (SIGSTOP): its watch, status refresh and keepalives hang meanwhile. In alternating
// blocks, so that the load of a shared machine falls on both figures alike.
#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "figures.h"
#include "local_etcds.h"
#include "run_events.h"

#include <csignal>
#include <future>
#include <memory>
#include <optional>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* prefix = "/bench/isolation/";

struct Healthy {
    std::unique_ptr<etcd::Client> writer;
    std::unique_ptr<Workspace> workspace;
    int64_t lease = 0; // the keys' session, as a Go client's
};

// Puts a new lock's key on each healthy cluster in turn, `rounds` in all, each timed from before
// the put until the cluster's lock list takes the lock, into `samples`.
void eventToModel(std::vector<Healthy>& clusters, int rounds, Samples& samples) {
    static int locks = 0; // each put a lock of its own: a lock event the watch hands on
    for (int round = 0; round < rounds; ++round) {
        Healthy& cluster = clusters[static_cast<std::size_t>(round) % clusters.size()];
        const std::string lock = prefix + std::string("lock-") + std::to_string(locks++);
        etcd::pb::PutRequest put;
        put.set_key(lock + "/" + etcd::leaseHex(cluster.lease));
        put.set_lease(cluster.lease);
        const LockWatch& watch = *cluster.workspace->lockWatch();
        const auto shown = [&] { return watch.state().locks.count(lock) > 0; };
        // Timed when the lock list takes the new lock, not when a poll next looks.
        std::optional<Clock::time_point> shownAt;
        const QObject rowsSeen;
        QObject::connect(watch.locks(), &QAbstractItemModel::rowsInserted, &rowsSeen, [&] {
            if (!shownAt && shown())
                shownAt = Clock::now();
        });
        const auto began = Clock::now();
        // Off the GUI thread, whose events carry the watch's answer to the model.
        auto written = std::async(std::launch::async, [&] {
            return etcd::call(*cluster.writer, &etcd::Client::put, put).ok();
        });
        runEventsUntil([&] { return shownAt.has_value(); }, std::chrono::seconds(5));
        if (shownAt)
            samples.add(*shownAt - began);
        written.wait();
        runEventsFor(std::chrono::milliseconds(5));
    }
}

std::unique_ptr<Workspace> watching(const etcd::ClientOptions& options) {
    auto workspace = std::make_unique<Workspace>(options);
    workspace->startRefreshing();
    workspace->lockWatch()->setPrefix(prefix);
    runEventsUntil([&] { return workspace->lockWatch()->live(); }, std::chrono::seconds(20));
    return workspace;
}

} // namespace

ClusterIsolationFigure measureClusterIsolation(int rounds) {
    ClusterIsolationFigure figure;
    auto started = startLocalEtcds(3, "isolation");
    if (!started)
        return figure;
    const auto& options = started->options;
    std::vector<Healthy> healthy;
    for (int i = 0; i < 2; ++i) {
        auto writer = etcd::Client::create(options[static_cast<std::size_t>(i)]);
        if (!writer)
            return figure;
        etcd::pb::LeaseGrantRequest grant;
        grant.set_ttl(600);
        const auto lease = etcd::call(**writer, &etcd::Client::leaseGrant, grant);
        if (!lease)
            return figure;
        healthy.push_back({std::move(writer).value(),
                           watching(options[static_cast<std::size_t>(i)]), lease->id()});
    }
    Samples warmUp{"warm-up", {}};
    eventToModel(healthy, rounds / 10, warmUp);
    figure.alone.name = "event to model, 2 clusters, the third absent";
    figure.beside.name = "event to model, 2 clusters, the third stopped";
    constexpr int blocks = 4; // of each
    const pid_t member = started->etcds[2]->pid(0);
    figure.hungLive = false;
    for (int block = 0; block < blocks; ++block) {
        eventToModel(healthy, rounds / blocks, figure.alone);
        auto hung = watching(options[2]);
        ::kill(member, SIGSTOP);
        runEventsFor(std::chrono::seconds(3)); // its calls are outstanding, its watch is silent
        eventToModel(healthy, rounds / blocks, figure.beside);
        figure.hungLive = figure.hungLive || hung->lockWatch()->live();
        ::kill(member, SIGCONT);
        hung->endAndWait(); // absent again
    }
    for (auto& cluster : healthy)
        cluster.workspace->endAndWait();
    figure.ran = !figure.alone.ms.empty() && !figure.beside.ms.empty();
    return figure;
}

} // namespace lockscope::bench
