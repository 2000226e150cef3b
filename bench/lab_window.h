#pragma once

#include "app/lab/lab_options.h"
#include "etcdclient/client_options.h"

#include <string>

namespace lockscope {
class MainWindow;
}

namespace lockscope::bench {

// Shows `window` (offscreen, 1600 x 1000) connected through `options` on `prefix`, and waits
// until its lock list is live.
void showLive(MainWindow& window, const etcd::ClientOptions& options, const std::string& prefix);
// The contention lab's `workers` on `locks` locks under `prefix` (<prefix>lock-<i>).
lab::LabOptions labOn(const std::string& prefix, int workers, int locks);

} // namespace lockscope::bench
