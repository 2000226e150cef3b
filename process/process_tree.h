#pragma once

#include "process/spawn.h"

#include <optional>
#include <string>
#include <sys/types.h>

namespace lockscope::process {

// A command and every process it starts, as one process group in a session of its own, so that
// one kill(-group) reaches all of them, grandchildren included. We become the subreaper of our
// descendants (PR_SET_CHILD_SUBREAPER, process-wide): a process whose parent dies is re-parented
// to us rather than to init, so we reap it and know when nothing of the group is left. The
// command itself is SIGKILLed if we die (PR_SET_PDEATHSIG); the rest of the group only through
// us. A process that leaves the group (setsid or setpgid, as daemons do) is beyond reach.
// Whatever is left of the group when this is destroyed is killed and reaped.
class ProcessTree {
public:
    // Starts `request`'s program in a session of its own that dies with us.
    explicit ProcessTree(SpawnRequest request);
    ~ProcessTree();
    ProcessTree(const ProcessTree&) = delete;
    ProcessTree& operator=(const ProcessTree&) = delete;

    bool started() const { return leader_ > 0; }
    // Why the command did not start.
    const std::string& error() const { return error_; }
    // Sends `signal` to every process of the group still there.
    void signal(int signal) const;
    // Reaps whatever of the group has exited; true once nothing of it is left.
    bool reap();
    // The command's own exit code (128 + signal if killed), once it was reaped.
    std::optional<int> exitCode() const { return exitCode_; }

private:
    pid_t leader_ = -1; // the command: its pid is the group's id
    std::string error_;
    std::optional<int> exitCode_;
    bool gone_ = false; // the group is empty: its id may name another group from now on
};

} // namespace lockscope::process
