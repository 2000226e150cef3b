#include "window_load.h"

#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/gui/main_window.h"
#include "idle_thread_stall.h"
#include "run_events.h"
#include "stall_probe.h"

namespace lockscope::bench {

WindowLoad loadWindow(MainWindow& window, const etcd::ClientOptions& options,
                      const std::string& prefix, int locks, std::chrono::seconds timeout) {
    using Clock = std::chrono::steady_clock;
    const auto secondsSince = [](Clock::time_point start) {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    WindowLoad load{};
    window.setPrefix(QString::fromStdString(prefix));
    {
        const StallProbe showing;
        window.show();
        runEventsFor(std::chrono::milliseconds(500)); // the first paint and the plots' first replot
        load.firstPaintStallMs = milliseconds(showing.longest());
    }
    const StallProbe probe;
    IdleThreadStall idleThread;
    const auto start = Clock::now();
    window.connectTo(options);
    const LockWatch* watch = window.lockWatch();
    runEventsUntil([watch] { return watch->locks()->rowCount() > 0; }, timeout);
    load.firstRowsSeconds = secondsSince(start);
    runEventsUntil([watch, locks] { return watch->live() && watch->locks()->rowCount() >= locks; },
                   timeout);
    load.fullListSeconds = secondsSince(start);
    load.longestStallMs = milliseconds(probe.longest());
    load.idleStallMs = milliseconds(idleThread.longest());
    return load;
}

} // namespace lockscope::bench
