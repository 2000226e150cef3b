#pragma once

#include "etcdclient/client_options.h"

#include <chrono>
#include <string>

namespace lockscope {
class MainWindow;
}

namespace lockscope::bench {

struct WindowLoad {
    double firstRowsSeconds;  // from connecting to the first locks in the list
    double fullListSeconds;   // to every lock in the list, live
    double longestStallMs;    // the GUI thread's meanwhile
    double idleStallMs;       // an idle thread's meanwhile: the machine's floor under it
    double firstPaintStallMs; // the GUI thread's as the window first showed, before connecting
};
// Shows `window` and lets it paint, then connects it to `prefix` and runs events until its list
// holds `locks` locks and it is live, or `timeout` has passed. The first paint is timed apart: it
// costs the same on an empty prefix, and is not what the keys do to the GUI thread.
WindowLoad loadWindow(MainWindow& window, const etcd::ClientOptions& options,
                      const std::string& prefix, int locks, std::chrono::seconds timeout);

} // namespace lockscope::bench
