// LockScope's main window (offscreen) on a prefix of a million lock keys, held by real leases:
// how soon the first locks show, how long until every lock is listed, the GUI thread's longest
// stall meanwhile, and the lock filter box on the full list.
#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/gui/main_window.h"
#include "figures.h"
#include "lock_key_fill.h"
#include "resident_memory.h"
#include "run_events.h"
#include "scratch_settings.h"
#include "session_leases.h"
#include "stall_probe.h"
#include "window_load.h"

#include <QApplication>
#include <QLineEdit>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

LargeWindowFigure measureLargeWindow(etcd::Client& client, const etcd::ClientOptions& options,
                                     const MonitorShape& shape) {
    const std::string prefix = "/bench/large-window/" + std::to_string(shape.locks) + "x" +
                               std::to_string(shape.keysPerLock) + "/";
    const std::string label =
        std::to_string(shape.locks) + " locks x " + std::to_string(shape.keysPerLock);
    LargeWindowFigure figure{shape, {}, 0, 0, {"window: filter " + label, {}}, 0, 0};
    {
        const SessionLeases sessions(client, shape.keysPerLock, 600);
        fillLockKeys(client, prefix, shape, sessions.ids());
        const double residentBefore = residentMb();
        const double heapBefore = heapInUseMb();
        MainWindow window;
        figure.load = loadWindow(window, options, prefix, shape.locks, std::chrono::seconds(300));
        figure.residentMb = residentMb() - residentBefore;
        figure.heapMb = heapInUseMb() - heapBefore;
        // A name typed into the filter box letter by letter, then cleared, each step with the
        // repaint it causes.
        auto* filter = window.findChild<QLineEdit*>("lockFilter");
        for (const char* text : {"l", "lock4", "lock42", "lock4242", "lock42", ""}) {
            const auto began = Clock::now();
            filter->setText(QString::fromLatin1(text));
            QApplication::processEvents();
            figure.filter.add(Clock::now() - began);
        }
        const StallProbe probe;
        const auto began = Clock::now();
        window.setPrefix(QString::fromStdString(prefix + "elsewhere/"));
        const LockWatch* watch = window.lockWatch();
        runEventsUntil([watch] { return watch->live() && watch->locks()->rowCount() == 0; },
                       std::chrono::seconds(60));
        figure.switchAwaySeconds = std::chrono::duration<double>(Clock::now() - began).count();
        figure.switchAwayStallMs = milliseconds(probe.longest());
    } // the sessions' revocation deletes the keys
    clearPrefix(client, prefix);
    return figure;
}

} // namespace

std::vector<LargeWindowFigure>
measureLargeWindows(etcd::Client& client, const etcd::ClientOptions& options, const Scale& scale) {
    const ScratchSettings settings;
    std::vector<LargeWindowFigure> out;
    for (const MonitorShape& shape : scale.largeWindowShapes)
        out.push_back(measureLargeWindow(client, options, shape));
    return out;
}

} // namespace lockscope::bench
