#pragma once

#include <string>
#include <vector>

namespace lockscope::test {

struct CommandResult {
    int exitCode = -1;
    std::string output; // stdout and stderr together
};

// Runs Debian's real `etcdctl` against `endpoints` and waits for it.
CommandResult etcdctl(const std::string& endpoints, const std::vector<std::string>& args);

// Turns authentication on: a root user (password "rootpw", required to enable auth) and a user
// "alice" (password "s3cr:et") whose role may read and write only under /alice/. Returns the
// first failed etcdctl run, or the last one.
CommandResult enableAuth(const std::string& endpoints);

} // namespace lockscope::test
