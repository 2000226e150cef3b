#pragma once

#include <chrono>
#include <cstdint>
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
};

// Two workers that each believed they held the same lock at the same time: a split brain.
struct Overlap {
    std::string lock;
    BelievedHold first, second; // first started earlier
    std::chrono::milliseconds lasted;
};

// Every pair of overlapping believed holds on the same lock, longest first.
std::vector<Overlap> findOverlaps(std::vector<BelievedHold> holds);

} // namespace lockscope::lab
