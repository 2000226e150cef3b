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

} // namespace lockscope::test
