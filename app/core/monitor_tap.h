#pragma once

#include "etcdclient/locks/lock_monitor.h"

#include <string>
#include <vector>

namespace lockscope {

// What else hears each run of a LockWatch's monitor (the desktop's recording). runStarted and
// runStopped come on the watch's thread; the run's listener calls in between come on the
// client's thread; once runStopped is called nothing of that run comes any more.
class MonitorTap {
public:
    virtual ~MonitorTap() = default;
    virtual void runStarted(const std::string& prefix) = 0;
    virtual void runStopped() = 0;
    virtual void onEvents(const etcd::LockMonitor& monitor,
                          const std::vector<etcd::LockEvent>& events) = 0;
};

} // namespace lockscope
