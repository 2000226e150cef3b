#include "process/process_tree.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>

namespace lockscope::process {

ProcessTree::ProcessTree(SpawnRequest request) {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    request.ownSession = true;
    request.dieWithParent = true;
    const Spawned spawned = spawn(request);
    leader_ = spawned.pid;
    error_ = spawned.error;
}

ProcessTree::~ProcessTree() {
    if (!started())
        return;
    signal(SIGKILL);
    // Bounded: a process in uninterruptible sleep dies only when its I/O ends, and a member
    // whose parent left the group is not ours to reap.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (!reap() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

void ProcessTree::signal(int signal) const {
    if (started() && !gone_)
        ::kill(-leader_, signal);
}

bool ProcessTree::reap() {
    if (gone_)
        return true;
    while (true) {
        int status = 0;
        const pid_t pid = ::waitpid(-leader_, &status, WNOHANG);
        if (pid == leader_)
            exitCode_ = exitCodeOf(status);
        else if (pid == 0 || (pid < 0 && errno != EINTR))
            break; // members still run, or none of them is our child (now)
    }
    // A member whose parent still lives is not our child yet: ask the group itself.
    gone_ = ::kill(-leader_, 0) != 0 && errno == ESRCH;
    return gone_;
}

} // namespace lockscope::process
