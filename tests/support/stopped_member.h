#pragma once

#include "process/local_cluster.h"

#include <sys/types.h>

namespace lockscope::test {

// SIGSTOPs a member for its lifetime, and returns once all its threads have stopped: it keeps
// its connections open and answers nothing, as a hung server does.
class StoppedMember {
public:
    StoppedMember(const etcd::LocalCluster& cluster, int member);
    ~StoppedMember();
    StoppedMember(const StoppedMember&) = delete;
    StoppedMember& operator=(const StoppedMember&) = delete;

private:
    pid_t pid_;
};

} // namespace lockscope::test
