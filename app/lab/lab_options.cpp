#include "app/lab/lab_options.h"

#include "etcdclient/lease_ttl.h"

namespace lockscope::lab {

std::string LabOptions::problem() const {
    if (workers < 1 || workers > 200)
        return "the lab runs 1 to 200 workers";
    if (locks.empty())
        return "give the lab at least one lock name";
    if (deadlock && locks.size() < 2)
        return "a deadlock needs at least two lock names (each worker takes its own and the next)";
    if (hold.count() < 0 || think.count() < 0)
        return "hold and think times cannot be negative";
    if (const std::string ttlProblem = etcd::leaseTtlProblem(ttlSeconds); !ttlProblem.empty())
        return "session TTL: " + ttlProblem;
    for (double p : {stallProbability, crashProbability, slowProbability})
        if (p < 0 || p > 1)
            return "chaos probabilities are between 0 and 1";
    if (resourceKey.empty())
        return "the fencing demo needs a resource key";
    return {};
}

} // namespace lockscope::lab
