#include "etcdclient/locks/lock_name_ranges.h"

namespace etcd {

LockNameRanges LockNameRanges::everything() {
    LockNameRanges all;
    all.add(Range{{}, {}, true});
    return all;
}

void LockNameRanges::add(Range range) {
    End end{std::move(range.last), range.toEnd};
    std::string first = std::move(range.first);
    auto next = ranges_.upper_bound(first);
    if (next != ranges_.begin()) {
        auto previous = std::prev(next);
        if (before(first, previous->second)) { // starts inside the previous range: extend it
            first = previous->first;
            if (!end.toEnd && (previous->second.toEnd || previous->second.last > end.last))
                end = previous->second;
            ranges_.erase(previous);
        }
    }
    while (next != ranges_.end() && before(next->first, end)) { // swallow what it reaches
        if (!end.toEnd && (next->second.toEnd || next->second.last > end.last))
            end = next->second;
        next = ranges_.erase(next);
    }
    ranges_.emplace_hint(next, std::move(first), std::move(end));
}

void LockNameRanges::add(const LockNameRanges& other) {
    for (const auto& [first, end] : other.ranges_)
        add(Range{first, end.last, end.toEnd});
}

void LockNameRanges::removeThrough(const std::string& name) {
    while (!ranges_.empty() && ranges_.begin()->first <= name) {
        auto range = ranges_.extract(ranges_.begin());
        if (before(name, range.mapped()) && (range.mapped().toEnd || range.mapped().last != name)) {
            // The rest of it: every name after `name` (name + '\0' is the next one there is).
            range.key() = name + '\0';
            ranges_.insert(std::move(range));
            return;
        }
    }
}

bool LockNameRanges::contains(const std::string& name) const {
    auto next = ranges_.upper_bound(name);
    return next != ranges_.begin() && before(name, std::prev(next)->second);
}

std::vector<LockNameRanges::Range> LockNameRanges::ranges() const {
    std::vector<Range> out;
    out.reserve(ranges_.size());
    for (const auto& [first, end] : ranges_)
        out.push_back({first, end.last, end.toEnd});
    return out;
}

} // namespace etcd
