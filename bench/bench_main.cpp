// lockscope-bench: our lock figures beside etcd's floor, measured side by side in one run.
#include "figures.h"
#include "process/local_cluster.h"

#include <QApplication>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
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

int usage() {
    std::fputs("usage: lockscope-bench [--quick] [--endpoints host:port,...] [--json FILE]\n"
               "  Starts its own etcd unless --endpoints is given; --quick takes under a "
               "minute.\n",
               stderr);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::string endpoints, jsonFile;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick"))
            quick = true;
        else if (!std::strcmp(argv[i], "--endpoints") && i + 1 < argc)
            endpoints = argv[++i];
        else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
            jsonFile = argv[++i];
        else
            return usage();
    }
    const Scale scale =
        quick ? Scale{100, 30, {1, 10}, {1000, 10000}, std::chrono::seconds(2)}
              : Scale{500, 200, {1, 10, 100}, {1000, 10000, 100000}, std::chrono::seconds(10)};
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

    std::vector<Samples> all = measureFloor(**client, scale);
    for (auto& s : measureLocks(**client, scale))
        all.push_back(std::move(s));
    for (auto& s : measureGoAnchor(**client, options.endpoints, scale))
        all.push_back(std::move(s));
    const auto loads = measureMonitorLoad(**client, scale);
    const auto eventRuns = measureEventToModel(**client, options, scale);
    for (const auto& r : eventRuns) {
        all.push_back(r.eventToWatch);
        all.push_back(r.eventToModel);
    }
    all.push_back(measureReplot());

    std::printf("%-44s %6s %9s %9s %9s\n", "figure", "n", "p50 ms", "p90 ms", "p99 ms");
    for (const auto& s : all)
        std::printf("%-44s %6zu %9.3f %9.3f %9.3f\n", s.name.c_str(), s.ms.size(), s.p(50), s.p(90),
                    s.p(99));
    for (const auto& l : loads)
        std::printf("monitor: load %7d lock keys %18.3f s %8.1f MB resident\n", l.keys, l.seconds,
                    l.residentMb);
    for (const auto& r : eventRuns)
        std::printf("gui: %dk events/s asked, %5.0f committed/s, longest GUI stall %7.1f ms\n",
                    r.eventsPerSecond / 1000, r.achievedPerSecond, r.longestStallMs);

    const double txn = find(all, "floor: bare Txn (an acquire's own Txn)").p(50);
    const double watch = find(all, "floor: put to watch event").p(50);
    const double acquire = find(all, "ours: uncontended acquire, open session").p(50);
    const double handoff1 = find(all, "ours: handoff, 1 waiting").p(50);
    const double etcdctlHandoff = find(all, "etcdctl: handoff, 1 waiting").p(50);
    std::vector<Target> targets = {
        {"uncontended acquire p50 / bare Txn p50", acquire / txn, 1.2, "x"},
        {"handoff p50 (1 waiting) / put-to-watch p50", handoff1 / watch, 1.3, "x"},
    };
    if (etcdctlHandoff > 0)
        targets.push_back(
            {"handoff p50 (1 waiting) / etcdctl handoff p50", handoff1 / etcdctlHandoff, 0.6, "x"});
    for (const auto& l : loads)
        if (l.keys == 100000) {
            targets.push_back({"100k lock keys: load time", l.seconds, 2.0, "s"});
            targets.push_back({"100k lock keys: resident memory", l.residentMb, 300, "MB"});
        }
    double longestStall = 0;
    for (const auto& r : eventRuns)
        longestStall = std::max(longestStall, r.longestStallMs);
    targets.push_back({"event to model p99 at 5k events/s",
                       find(all, "gui: event to model, 5k events/s").p(99), 5, "ms"});
    targets.push_back({"longest GUI stall while events arrive", longestStall, 50, "ms"});
    targets.push_back({"replot p90, 8 series x 36,000 points",
                       find(all, "gui: replot, 8 series x 36,000 points").p(90), 10, "ms"});
    std::printf("\n%-46s %9s %9s  %s\n", "target", "measured", "limit", "");
    for (const auto& t : targets)
        std::printf("%-46s %8.2f%s %8.2f%s  %s\n", t.what.c_str(), t.value, t.unit.c_str(), t.limit,
                    t.unit.c_str(), t.value <= t.limit ? "met" : "MISSED");

    if (!jsonFile.empty()) {
        std::ofstream out(jsonFile);
        out << "{\"figures\":[";
        for (std::size_t i = 0; i < all.size(); ++i)
            out << (i ? "," : "") << "{\"name\":\"" << all[i].name
                << "\",\"n\":" << all[i].ms.size() << ",\"p50_ms\":" << all[i].p(50)
                << ",\"p90_ms\":" << all[i].p(90) << ",\"p99_ms\":" << all[i].p(99) << "}";
        out << "],\"monitor_load\":[";
        for (std::size_t i = 0; i < loads.size(); ++i)
            out << (i ? "," : "") << "{\"keys\":" << loads[i].keys
                << ",\"seconds\":" << loads[i].seconds << ",\"resident_mb\":" << loads[i].residentMb
                << "}";
        out << "],\"gui_event_runs\":[";
        for (std::size_t i = 0; i < eventRuns.size(); ++i)
            out << (i ? "," : "") << "{\"events_per_second\":" << eventRuns[i].eventsPerSecond
                << ",\"committed_per_second\":" << eventRuns[i].achievedPerSecond
                << ",\"longest_gui_stall_ms\":" << eventRuns[i].longestStallMs << "}";
        out << "],\"targets\":[";
        for (std::size_t i = 0; i < targets.size(); ++i)
            out << (i ? "," : "") << "{\"what\":\"" << targets[i].what
                << "\",\"measured\":" << targets[i].value << ",\"limit\":" << targets[i].limit
                << ",\"met\":" << (targets[i].value <= targets[i].limit ? "true" : "false") << "}";
        out << "]}\n";
    }
    return 0;
}
