#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lockscope::process {

// How to start a child. Everything is prepared before fork(); between fork() and exec the child
// makes only async-signal-safe calls (no malloc, no stdio), since another thread of ours may
// have held the allocator's or stdio's lock at the moment of the fork.
struct SpawnRequest {
    std::vector<std::string> argv{};        // argv[0] is looked up in PATH unless it has a '/'
    std::vector<std::string> environment{}; // NAME=value, replacing or adding to ours
    int outputFd = -1;                      // the child's stdout and stderr; ours when -1
    int inputFd = -1;                       // the child's stdin; ours when -1
    bool ownProcessGroup = false;           // a terminal's Ctrl-C goes to us, not to it
    // A session (and so a process group) of its own, without a controlling terminal: it still
    // reads and writes the terminal through its standard streams, without being stopped for
    // doing so (a background process group would be), but cannot open /dev/tty.
    bool ownSession = false;
    // SIGKILL when the thread that spawned it ends, so it never outlives us, even killed.
    bool dieWithParent = false;
};

// A started child, or why it did not start. A program that cannot be run is reported here
// (the child hands exec's errno back over a close-on-exec pipe) rather than by the child.
struct Spawned {
    pid_t pid = -1;
    std::string error;
    bool ok() const { return pid > 0; }
};

// Starts the child with no signal blocked (exec keeps the mask, and lockscopectl blocks the
// ones it waits for).
Spawned spawn(const SpawnRequest& request);

// The exit code (128 + signal if killed) once `pid` exited within `timeout`, reaped; nothing if
// it is still running.
std::optional<int> waitForExit(pid_t pid, std::chrono::milliseconds timeout);

// The exit code a wait status stands for: the process's own, or 128 + the signal that killed it.
int exitCodeOf(int status);

// Sends `signal`, then SIGKILL if it has not exited within `grace`; reaps it either way.
void stopProcess(pid_t pid, int signal, std::chrono::milliseconds grace);

} // namespace lockscope::process
