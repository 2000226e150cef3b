#pragma once

#include "etcdclient/locks/lock_types.h"

#include <mutex>
#include <vector>

namespace lockscope {

// What a lock monitor's listener, on the client's thread, leaves for the next drain on the GUI
// thread. The listener posts a drain only when add() says so: for the first events since the
// last drain (what comes before that drain runs joins it), and for its first call after a
// drain found the monitor busy and gave its events back. The listener runs once the monitor is
// free again, so that drain takes the monitor at once; a retry on a timer held back every
// event of the next milliseconds with it (a tenth of them at 5k events/s).
class LockEventInbox {
public:
    // From the listener. No events: only TTLs or liveness changed, which the next drain or tick
    // takes. True: post a drain.
    bool add(const std::vector<etcd::LockEvent>& events);
    // For a drain: whether anything changed since the last; `events` gets the events, oldest
    // first. Empties the inbox.
    bool take(std::vector<etcd::LockEvent>& events);
    // A drain that found the monitor busy: its events go back ahead of those that came since,
    // and the listener's next call asks for a drain.
    void giveBack(std::vector<etcd::LockEvent> events);

private:
    std::mutex mutex_;
    std::vector<etcd::LockEvent> events_;
    bool changed_ = false;
    bool drainWanted_ = false;
};

} // namespace lockscope
