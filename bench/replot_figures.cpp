#include "etcdclient/clock.h"
#include "figures.h"
#include "widgets/latency_plot.h"

#include <QEventLoop>
#include <QTimer>
#include <qcustomplot.h>
#include <random>

namespace lockscope::bench {

namespace {
constexpr int seriesCount = 8;
constexpr double pointsPerSecond = 10;
constexpr double windowSeconds = 3600;
constexpr int replots = 50;

// Lets queued work (the plot's coalesced redraw, the first paint) run for `ms`.
void runEventsFor(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}
} // namespace

Samples measureReplot() {
    LatencyPlot plot;
    plot.resize(1200, 400);
    plot.setWindowSeconds(windowSeconds);
    // Round trips that wander like real ones: a line that zigzags costs what a real one does.
    std::mt19937 random(42);
    std::lognormal_distribution<double> roundTripMs(0.0, 0.5);
    const double now = etcd::unixSeconds(std::chrono::system_clock::now());
    const int points = static_cast<int>(windowSeconds * pointsPerSecond);
    const double start = now - windowSeconds;
    auto addPoints = [&](int i) {
        for (int series = 1; series <= seriesCount; ++series)
            plot.addPoint(QStringLiteral("series %1").arg(series), start + i / pointsPerSecond,
                          roundTripMs(random) * series);
    };
    for (int i = 0; i < points; ++i)
        addPoints(i);
    plot.show();
    runEventsFor(3 * LatencyPlot::ReplotIntervalMs); // the axes follow the data, then paint

    auto* customPlot = plot.findChild<QCustomPlot*>();
    Samples samples{"gui: replot, 8 series x 36,000 points", {}};
    for (int i = points; i < points + replots; ++i) {
        addPoints(i); // as live: a new point per series, the oldest going out of the window
        const auto began = std::chrono::steady_clock::now();
        customPlot->replot(QCustomPlot::rpImmediateRefresh);
        samples.add(std::chrono::steady_clock::now() - began);
    }
    return samples;
}

} // namespace lockscope::bench
