#pragma once

#include "etcdclient/locks/lock_monitor.h"

namespace lockscope {

// Says on stderr that the lock monitor's list or watch failed. A script must tell idle from
// broken: every failed attempt is said, and one that retrying cannot fix (permission denied,
// bad credentials) ends the event loop with ExitFailed. True while the monitor keeps trying.
// Called on the client's thread.
bool reportMonitorRetry(const etcd::LockMonitor::Retry& retry);

} // namespace lockscope
