#include "etcdclient/clock.h"
#include "figures.h"
#include "resident_memory.h"
#include "run_events.h"
#include "widgets/latency_plot.h"

#include <qcustomplot.h>
#include <random>

namespace lockscope::bench {

namespace {
constexpr int seriesCount = 8;
constexpr double pointsPerSecond = LatencyPlot::MaxPointsPerSecond;
constexpr double historySeconds = LatencyPlot::DaySeconds;
constexpr int replots = 50;
} // namespace

ReplotFigure measureReplot() {
    const double residentBefore = residentMb();
    LatencyPlot plot;
    plot.resize(1200, 400);
    plot.setWindowSeconds(historySeconds); // the whole day in view: every point decimated
    // Round trips that wander like real ones: a line that zigzags costs what a real one does.
    std::mt19937 random(42);
    std::lognormal_distribution<double> roundTripMs(0.0, 0.5);
    const double now = etcd::unixSeconds(std::chrono::system_clock::now());
    const int points = static_cast<int>(historySeconds * pointsPerSecond);
    const double start = now - historySeconds;
    QStringList names;
    for (int series = 1; series <= seriesCount; ++series)
        names.append(QStringLiteral("series %1").arg(series));
    auto addPoints = [&](int i) {
        for (int series = 0; series < seriesCount; ++series)
            plot.addPoint(names[series], start + i / pointsPerSecond,
                          roundTripMs(random) * (series + 1));
    };
    for (int i = 0; i < points; ++i)
        addPoints(i);
    plot.show();
    runEventsFor(std::chrono::milliseconds(
        3 * LatencyPlot::ReplotIntervalMs)); // the axes follow the data, then paint

    auto* customPlot = plot.findChild<QCustomPlot*>();
    const double residentAfter = residentMb();
    Samples samples{"gui: replot, 8 series x a day at 10 Hz", {}};
    for (int i = points; i < points + replots; ++i) {
        addPoints(i); // as live: a new point per series, the oldest going out of the window
        const auto began = std::chrono::steady_clock::now();
        customPlot->replot(QCustomPlot::rpImmediateRefresh);
        samples.add(std::chrono::steady_clock::now() - began);
    }
    return {samples, static_cast<double>(plot.memoryBytes()) / (1024.0 * 1024.0),
            residentAfter - residentBefore};
}

} // namespace lockscope::bench
