#include "etcdclient/locks/lock_change_log.h"

#include <algorithm>

namespace etcd {

LockChangeLog::LockChangeLog(std::size_t capacity)
    : capacity_(std::max<std::size_t>(1, capacity)) {}

void LockChangeLog::changed(const std::string& lock) {
    const uint64_t stamp = ++stamp_;
    const auto [known, added] = stampOf_.try_emplace(lock, stamp);
    if (added) {
        changes_.emplace_hint(changes_.end(), stamp, LockNameRanges::Range{lock, lock, false});
    } else { // moved to the newest place: no allocation for a lock changed again
        auto change = changes_.extract(known->second);
        change.key() = stamp;
        changes_.insert(changes_.end(), std::move(change));
        known->second = stamp;
    }
    if (changes_.size() > capacity_)
        forgetOldest();
}

void LockChangeLog::changed(LockNameRanges::Range range) {
    if (!range.toEnd && range.first == range.last) {
        changed(range.first);
        return;
    }
    changes_.emplace_hint(changes_.end(), ++stamp_, std::move(range));
    if (changes_.size() > capacity_)
        forgetOldest();
}

void LockChangeLog::forgetOldest() {
    const auto oldest = changes_.begin();
    // A copy at a stamp below the forgotten change's has missed it.
    knownSince_ = oldest->first;
    if (const auto single = stampOf_.find(oldest->second.first);
        single != stampOf_.end() && single->second == oldest->first)
        stampOf_.erase(single);
    changes_.erase(oldest);
}

void LockChangeLog::changedAll() {
    changes_.clear();
    stampOf_.clear();
    knownSince_ = ++stamp_;
}

std::optional<LockNameRanges> LockChangeLog::changedAfter(uint64_t since) const {
    if (since < knownSince_ || since > stamp_) // too old, or not a stamp of this log
        return std::nullopt;
    LockNameRanges locks;
    for (auto change = changes_.upper_bound(since); change != changes_.end(); ++change)
        locks.add(change->second);
    return locks;
}

} // namespace etcd
