#include "app/core/workspace.h"
#include "app/gui/main_window.h"
#include "app/lab/contention_lab.h"
#include "figures.h"
#include "lab_window.h"
#include "resident_memory.h"
#include "run_events.h"
#include "scratch_settings.h"
#include "widgets/latency_plot.h"
#include "widgets/series_history.h"

#include <cstdio>
#include <ctime>

namespace lockscope::bench {

namespace {

constexpr int soakWorkers = 100;
constexpr int soakLocks = 10;
constexpr std::chrono::seconds sampleEvery{10};
// Caches, pools and the day of graphs' first columns fill in the first minutes: the slope is
// taken after them (or after the first third of a shorter run).
constexpr double settledMinutes = 5;

// What malloc holds for each byte of points a graph counts (LatencyPlot::memoryBytes): a
// series keeps its points in deques, whose blocks, their map and malloc's header on each block
// add a few percent, which the points' count misses. Measured on a day of one series, before
// the window opens, while nothing else allocates.
double graphsBytesHeldPerCounted() {
    const double before = heapInUseMb();
    const auto day =
        static_cast<std::size_t>(LatencyPlot::DaySeconds * LatencyPlot::MaxPointsPerSecond);
    SeriesHistory series(day);
    for (std::size_t i = 0; i < day; ++i)
        series.append(static_cast<double>(i) / LatencyPlot::MaxPointsPerSecond,
                      static_cast<double>(i % 100));
    return (heapInUseMb() - before) * 1024.0 * 1024.0 / static_cast<double>(series.memoryBytes());
}

// The bytes every graph of the window holds for its points (their count times `heldPerCounted`):
// the day of graphs, the one growth that is planned (bounded by the day), to be told apart
// from growth that is not.
double graphsMb(const MainWindow& window, double heldPerCounted) {
    std::size_t bytes = 0;
    for (const LatencyPlot* plot : window.findChildren<LatencyPlot*>())
        bytes += plot->memoryBytes();
    return heldPerCounted * static_cast<double>(bytes) / (1024.0 * 1024.0);
}

double processCpuSeconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// The least-squares slope of (x, y) points, per unit of x.
double slope(const std::vector<std::pair<double, double>>& points) {
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& [x, y] : points) {
        ++n;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    const double spread = n * sxx - sx * sx;
    return n < 2 || spread == 0 ? 0 : (n * sxy - sx * sy) / spread;
}

} // namespace

SoakFigure measureSoak(const etcd::ClientOptions& options, std::chrono::minutes duration) {
    const double heldPerCounted = graphsBytesHeldPerCounted();
    std::fprintf(stderr, "soak: malloc holds %.3f bytes per byte of the graphs' points\n",
                 heldPerCounted);
    const ScratchSettings settings;
    const std::string prefix = "/bench/soak/";
    MainWindow window;
    showLive(window, options, prefix);

    lab::LabOptions lab = labOn(prefix, soakWorkers, soakLocks);
    // Chaos: stalled holders that lose their lease, crashed ones, slow ones.
    lab.stallProbability = 0.02;
    lab.crashProbability = 0.01;
    lab.slowProbability = 0.05;
    window.workspace()->startLab(lab, false);

    SoakFigure figure;
    figure.minutes = static_cast<double>(duration.count());
    const auto began = std::chrono::steady_clock::now();
    double cpuBefore = processCpuSeconds();
    auto sampledAt = began;
    while (std::chrono::steady_clock::now() - began < duration) {
        runEventsFor(sampleEvery);
        const auto now = std::chrono::steady_clock::now();
        const double minute = std::chrono::duration<double, std::ratio<60>>(now - began).count();
        const double cpu = processCpuSeconds();
        const double cpuPercent =
            100 * (cpu - cpuBefore) / std::chrono::duration<double>(now - sampledAt).count();
        cpuBefore = cpu;
        sampledAt = now;
        figure.samples.push_back(
            {minute, residentMb(), heapInUseMb(), graphsMb(window, heldPerCounted), cpuPercent});
        const auto& s = figure.samples.back();
        std::fprintf(stderr,
                     "soak: %5.1f min  %7.1f MB resident  %7.1f MB heap in use  %6.1f MB free in "
                     "arenas  %6.2f MB of graphs  %5.1f %% CPU\n",
                     minute, s.residentMb, s.heapMb, heapFreeMb(), s.graphsMb, cpuPercent);
    }
    window.workspace()->stopLab();

    const double settled = std::min(settledMinutes, figure.minutes / 3);
    std::vector<std::pair<double, double>> resident, heap, graphs, cpu;
    for (const auto& s : figure.samples)
        if (s.minute >= settled) {
            resident.emplace_back(s.minute, s.residentMb);
            heap.emplace_back(s.minute, s.heapMb);
            graphs.emplace_back(s.minute, s.graphsMb);
            cpu.emplace_back(s.minute, s.cpuPercent);
        }
    figure.settledMinutes = settled;
    figure.residentMbPerMinute = slope(resident);
    figure.heapMbPerMinute = slope(heap);
    figure.graphsMbPerMinute = slope(graphs);
    // A slope is linear, so the slope of (resident - graphs) is the difference of the slopes.
    figure.unplannedResidentMbPerMinute = figure.residentMbPerMinute - figure.graphsMbPerMinute;
    figure.unplannedHeapMbPerMinute = figure.heapMbPerMinute - figure.graphsMbPerMinute;
    figure.cpuPercentPerMinute = slope(cpu);
    return figure;
}

} // namespace lockscope::bench
