#include "etcdclient/locks/lock_change_log.h"

#include <algorithm>

namespace etcd {

LockChangeLog::LockChangeLog(std::size_t capacity)
    : capacity_(std::max<std::size_t>(1, capacity)) {}

void LockChangeLog::changed(const std::string& lock) {
    changed(LockNameRanges::Range{lock, lock, false});
}

void LockChangeLog::changed(LockNameRanges::Range range) {
    changes_.push_back({++stamp_, std::move(range)});
    if (changes_.size() > capacity_) {
        // A copy at a stamp below the forgotten change's has missed it.
        knownSince_ = changes_.front().stamp;
        changes_.pop_front();
    }
}

void LockChangeLog::changedAll() {
    changes_.clear();
    knownSince_ = ++stamp_;
}

std::optional<LockNameRanges> LockChangeLog::changedAfter(uint64_t since) const {
    if (since < knownSince_ || since > stamp_) // too old, or not a stamp of this log
        return std::nullopt;
    const auto first =
        std::upper_bound(changes_.begin(), changes_.end(), since,
                         [](uint64_t stamp, const Change& change) { return stamp < change.stamp; });
    LockNameRanges locks;
    for (auto change = first; change != changes_.end(); ++change)
        locks.add(change->locks);
    return locks;
}

} // namespace etcd
