#pragma once

#include <set>
#include <string>
#include <sys/types.h>

namespace lockscope::test {

// The processes named `name` whose parent is `parent`, read from /proc: what a test checks to
// see that no etcd it caused to start is left behind. A zombie counts: its parent has not
// reaped it yet.
std::set<pid_t> childProcesses(pid_t parent, const std::string& name);

// Whether `pid` is a running process (a zombie counts as ended).
bool processAlive(pid_t pid);

// Whether every thread of `pid` is stopped (state T), as after a SIGSTOP has taken effect.
bool everyThreadStopped(pid_t pid);

} // namespace lockscope::test
