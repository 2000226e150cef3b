#pragma once

#include "process/child_process.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockscope::test {

struct CommandResult {
    int exitCode = -1;
    std::string output; // stdout and stderr together
};

// Runs Debian's real `etcdctl` against `endpoints` and waits for it.
CommandResult etcdctl(const std::string& endpoints, const std::vector<std::string>& args);

// A real `etcdctl lock <name> [args...]` left running: it prints its key once it holds the
// lock and holds it until SIGINT or SIGTERM (or until its command, if args name one, ends).
std::unique_ptr<process::ChildProcess> etcdctlLock(const std::string& endpoints,
                                                   const std::string& name,
                                                   std::vector<std::string> args = {});

// A real `etcdctl elect <name> <proposal>` left running: it campaigns, prints the leader's key
// and proposal once it leads, and stays a candidate (or the leader) until SIGINT or SIGTERM.
std::unique_ptr<process::ChildProcess>
etcdctlElect(const std::string& endpoints, const std::string& name, const std::string& proposal);

// The next line a child printed if one is there, after a wait of a few milliseconds at most:
// for polling from an event loop that must keep running meanwhile (QTRY_*).
std::optional<std::string> pollLine(process::ChildProcess& child);

} // namespace lockscope::test
