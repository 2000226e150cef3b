#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace lockscope::lab {

// How the contention lab's workers behave.
struct LabOptions {
    int workers = 10; // 1 to 200
    std::vector<std::string> locks = {"/lockscope-lab/lock"};
    std::chrono::milliseconds hold{100}; // how long a worker keeps the lock
    std::chrono::milliseconds think{50}; // pause between two attempts
    int64_t ttlSeconds = 2;              // each worker's session lease
    double stallProbability = 0;         // per hold: keepalives stop and the hold outlasts the TTL
    double crashProbability = 0;         // per hold: the worker vanishes without releasing
    double slowProbability = 0;          // per hold: it holds five times as long
    bool fencing = true;                 // resource writes are guarded by the fencing token
    // Each worker holds its lock, then takes the next one in `locks` too, on the same session, as
    // one Go client holding a lock while it takes another: with a worker per lock, a ring of
    // sessions each waiting for the next, a deadlock no TTL ends (it is real on etcd, for
    // lockscopectl blockers and the Blockers page). Revoking one of them breaks it; that worker
    // starts over with a new session.
    bool deadlock = false;
    std::string resourceKey = "/lockscope-lab-resource"; // outside the locks' prefix
    uint32_t seed = 1;

    // Empty when valid, else what is wrong and what to do.
    std::string problem() const;
};

} // namespace lockscope::lab
