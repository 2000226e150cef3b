#pragma once

#include "etcdclient/locks/lock_name_ranges.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

namespace etcd {

// Which locks changed, in order, each change with a stamp, so a copy of the locks taken at one
// stamp can be brought up to date by copying only the locks changed since. At thousands of
// events a second a display copying all of 100k keys per update could not keep up; it copies
// the few locks each update touches. A lock's change replaces its earlier one (a copy needs to
// know that a lock changed since, not how often), so the log holds a change per lock changed,
// not per event: a lab churning 10 locks for hours holds 10, where a change per event filled
// all 65,536 places (10 MB a monitor, growing for the first quarter of an hour). Bounded: a
// copy from before the oldest change the log still holds, or from before a change to
// everything, must copy everything.
class LockChangeLog {
public:
    explicit LockChangeLog(std::size_t capacity = 65536);

    // One lock's keys (or what is known about them) changed.
    void changed(const std::string& lock);
    // Any lock in `range` may have changed (a page of a listing came in): one entry.
    void changed(LockNameRanges::Range range);
    // Every lock may have changed (the locks were read anew).
    void changedAll();

    // The stamp of the latest change; 0 before any.
    uint64_t stamp() const { return stamp_; }
    // The locks changed after stamp `since`; nullopt when the log cannot tell (too far back, a
    // change to everything since, or a stamp it never gave), and everything must be copied.
    std::optional<LockNameRanges> changedAfter(uint64_t since) const;
    // The changes held: one per lock (or page) changed since the oldest, at most the capacity.
    std::size_t size() const { return changes_.size(); }

private:
    void forgetOldest();

    std::size_t capacity_;
    std::map<uint64_t, LockNameRanges::Range> changes_; // by stamp, oldest first
    std::unordered_map<std::string, uint64_t> stampOf_; // a single lock's change in changes_
    uint64_t stamp_ = 0;
    // A copy at a stamp below this one has missed what the log no longer holds; stamp 0, no copy
    // yet, always has.
    uint64_t knownSince_ = 1;
};

} // namespace etcd
