#include "support/stopped_member.h"

#include "support/child_processes.h"

#include <chrono>
#include <csignal>
#include <thread>

namespace lockscope::test {

StoppedMember::StoppedMember(const etcd::LocalCluster& cluster, int member)
    : pid_(cluster.pid(member)) {
    ::kill(pid_, SIGSTOP);
    // kill() returns once the stop is queued; the threads stop when one of them is scheduled to
    // take it, and on a loaded machine the others answer requests meanwhile. Wait for all.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!everyThreadStopped(pid_) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

StoppedMember::~StoppedMember() {
    ::kill(pid_, SIGCONT);
}

} // namespace lockscope::test
