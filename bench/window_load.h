#pragma once

#include "etcdclient/client_options.h"

#include <chrono>
#include <string>

namespace lockscope {
class MainWindow;
}

namespace lockscope::bench {

struct WindowLoad {
    double firstRowsSeconds; // from connecting to the first locks in the list
    double fullListSeconds;  // to every lock in the list, live
    double longestStallMs;   // the GUI thread's meanwhile
};
// Opens `window` on `prefix` (connects, shows it), then runs events until its list holds `locks`
// locks and it is live, or `timeout` has passed.
WindowLoad loadWindow(MainWindow& window, const etcd::ClientOptions& options,
                      const std::string& prefix, int locks, std::chrono::seconds timeout);

} // namespace lockscope::bench
