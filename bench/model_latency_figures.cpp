#include "app/gui/lock_watch.h"
#include "app/gui/main_window.h"
#include "figures.h"
#include "lock_event_writer.h"
#include "stall_probe.h"

#include <QEventLoop>
#include <QSettings>
#include <QTemporaryDir>
#include <atomic>
#include <functional>
#include <map>
#include <thread>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

// The rates the issue asks for.
constexpr int eventRates[] = {1000, 5000};
// Past this, an event the window has not shown counts as never shown.
constexpr std::chrono::seconds settleTimeout{10};

// Runs this thread's event loop until `done` holds (checked every few milliseconds) or
// `timeout` has passed.
void runEventsUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    QEventLoop loop;
    QTimer check;
    const auto deadline = Clock::now() + timeout;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done() || Clock::now() >= deadline)
            loop.quit();
    });
    check.start(10);
    loop.exec();
}

EventRateFigure measureRate(etcd::Client& writerClient, const etcd::ClientOptions& options,
                            int eventsPerSecond, Clock::duration run) {
    const std::string prefix = "/bench/events/" + std::to_string(eventsPerSecond) + "/";
    LockEventWriter writer(writerClient, prefix);

    MainWindow window; // goes before the writer, whose leases' revocation it need not see
    window.setPrefix(QString::fromStdString(prefix));
    window.connectTo(options);
    window.show();
    const LockWatch* watch = window.lockWatch();
    runEventsUntil([watch] { return watch->live(); }, settleTimeout);

    // When the models first showed each revision; on the GUI thread, after every other
    // receiver of the same signal (the charts) has had it too.
    std::map<int64_t, Clock::time_point> shown;
    QObject::connect(watch, &LockWatch::eventsArrived, &window,
                     [&shown](const std::vector<etcd::LockEvent>& events) {
                         const auto now = Clock::now();
                         for (const etcd::LockEvent& event : events)
                             shown.emplace(event.revision, now);
                     });

    StallProbe probe;
    std::atomic<bool> written = false;
    std::thread writing([&] {
        writer.run(eventsPerSecond, run);
        written = true;
    });
    runEventsUntil(
        [&] {
            // Events are shown in revision order: the last one shown means all were.
            return written && (writer.lastRevision() == 0 || shown.contains(writer.lastRevision()));
        },
        std::chrono::duration_cast<std::chrono::milliseconds>(run + settleTimeout));
    writing.join();

    EventRateFigure figure{
        eventsPerSecond,
        writer.achievedPerSecond(),
        {"gui: event to model, " + std::to_string(eventsPerSecond / 1000) + "k events/s", {}},
        std::chrono::duration<double, std::milli>(probe.longest()).count()};
    for (const auto& [revision, committedAt] : writer.committed()) {
        const auto seen = shown.find(revision);
        if (seen == shown.end())
            continue; // never shown: the figure's n says how many were
        // The watch event can beat the write's own answer to us: that event was on time.
        figure.eventToModel.add(std::max(Clock::duration::zero(), seen->second - committedAt));
    }
    return figure;
}

} // namespace

std::vector<EventRateFigure>
measureEventToModel(etcd::Client& writer, const etcd::ClientOptions& window, const Scale& scale) {
    // The window keeps its geometry and recent prefixes here, not in the user's settings.
    const QTemporaryDir settings;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    std::vector<EventRateFigure> out;
    for (int rate : eventRates)
        out.push_back(measureRate(writer, window, rate, scale.eventRun));
    return out;
}

} // namespace lockscope::bench
