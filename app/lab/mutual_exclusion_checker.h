#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lockscope::lab {

using Clock = std::chrono::steady_clock;

// One interval a worker believed it held a lock, by its own clock.
struct BelievedHold {
    int worker;
    std::string lock;
    std::string key;
    int64_t fencingToken;
    Clock::time_point from, to;
    bool outlived = false; // a later hold of another worker began before this one ended
};

// Two workers that each believed they held the same lock at the same time: a split brain.
struct Overlap {
    std::string lock;
    BelievedHold first, second; // first started earlier
    std::chrono::milliseconds lasted;
};

// Finds split brains as holds end: an ended hold is compared with the ended holds of its lock
// that it could overlap. An ended hold is kept only while a hold in progress began before it
// ended, since only such a hold can still overlap it; so a lab that runs for days keeps the
// holds of its last seconds, not of its whole run (the run's holds, kept and sorted on every
// refresh, grew the window's memory and CPU for an hour).
class MutualExclusionChecker {
public:
    explicit MutualExclusionChecker(std::size_t longestKept = 100);

    // `worker` believes it holds a lock from `from` on.
    void began(int worker, Clock::time_point from);
    // Its hold ended (a worker holds one lock at a time).
    void ended(BelievedHold hold);

    // Every pair of overlapping holds found so far.
    std::size_t found() const { return found_; }
    // The holds another worker's later hold overlapped: holders that held on after another
    // took over (a stalled holder overlapped by seven successors is one, in seven pairs).
    std::size_t outlivingHolds() const { return outliving_; }
    // The longest of them (at most longestKept), longest first.
    const std::vector<Overlap>& longest() const { return longest_; }
    std::size_t holdsKept() const;

private:
    void keepLongest(Overlap overlap);

    std::size_t longestKept_;
    std::map<int, Clock::time_point> inProgress_;            // by worker: since when it holds
    std::map<std::string, std::vector<BelievedHold>> ended_; // by lock, as they ended
    std::vector<Overlap> longest_;
    std::size_t found_ = 0;
    std::size_t outliving_ = 0;
};

} // namespace lockscope::lab
