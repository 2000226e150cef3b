#include "app/lab/mutual_exclusion_checker.h"

#include <algorithm>

namespace lockscope::lab {

MutualExclusionChecker::MutualExclusionChecker(std::size_t longestKept)
    : longestKept_(longestKept) {}

void MutualExclusionChecker::began(int worker, Clock::time_point from) {
    inProgress_[worker] = from;
}

void MutualExclusionChecker::ended(BelievedHold hold) {
    inProgress_.erase(hold.worker);
    auto& ofLock = ended_[hold.lock];
    for (BelievedHold& other : ofLock) {
        if (other.worker == hold.worker || other.from >= hold.to || hold.from >= other.to)
            continue;
        const bool otherFirst = other.from <= hold.from;
        BelievedHold& first = otherFirst ? other : hold;
        const BelievedHold& second = otherFirst ? hold : other;
        ++found_;
        if (!first.outlived) {
            first.outlived = true;
            ++outliving_;
        }
        keepLongest({hold.lock, first, second,
                     std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::min(first.to, second.to) - second.from)});
    }
    const Clock::time_point endedAt = hold.to;
    ofLock.push_back(std::move(hold));
    // A hold that began at or after `before` cannot overlap a hold that ended by then.
    Clock::time_point before = endedAt;
    for (const auto& [worker, from] : inProgress_)
        before = std::min(before, from);
    for (auto it = ended_.begin(); it != ended_.end();) {
        auto& holds = it->second;
        holds.erase(std::remove_if(holds.begin(), holds.end(),
                                   [&](const BelievedHold& h) { return h.to <= before; }),
                    holds.end());
        it = holds.empty() ? ended_.erase(it) : std::next(it);
    }
}

void MutualExclusionChecker::keepLongest(Overlap overlap) {
    if (longest_.size() == longestKept_ && longest_.back().lasted >= overlap.lasted)
        return;
    const auto at = std::upper_bound(
        longest_.begin(), longest_.end(), overlap.lasted,
        [](std::chrono::milliseconds lasted, const Overlap& o) { return lasted > o.lasted; });
    longest_.insert(at, std::move(overlap));
    if (longest_.size() > longestKept_)
        longest_.pop_back();
}

std::size_t MutualExclusionChecker::holdsKept() const {
    std::size_t kept = 0;
    for (const auto& [lock, holds] : ended_)
        kept += holds.size();
    return kept;
}

} // namespace lockscope::lab
