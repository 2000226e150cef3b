#include "app/core/lock_event_inbox.h"

#include <iterator>
#include <utility>

namespace lockscope {

bool LockEventInbox::add(const std::vector<etcd::LockEvent>& events) {
    std::lock_guard lock(mutex_);
    const bool first = events_.empty() && !events.empty();
    events_.insert(events_.end(), events.begin(), events.end());
    changed_ = true;
    return std::exchange(drainWanted_, false) || first;
}

bool LockEventInbox::take(std::vector<etcd::LockEvent>& events) {
    std::lock_guard lock(mutex_);
    events.clear();
    events.swap(events_);
    drainWanted_ = false; // this drain is the one wanted
    return std::exchange(changed_, false);
}

void LockEventInbox::giveBack(std::vector<etcd::LockEvent> events) {
    std::lock_guard lock(mutex_);
    events.insert(events.end(), std::make_move_iterator(events_.begin()),
                  std::make_move_iterator(events_.end()));
    events_.swap(events);
    changed_ = true;
    drainWanted_ = true;
}

} // namespace lockscope
