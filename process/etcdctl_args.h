#pragma once

#include <string>
#include <vector>

namespace lockscope::process {

// The argv of `etcdctl --endpoints=E args...`, e.g. a `lock` to run as a ChildProcess.
std::vector<std::string> etcdctlArgs(const std::string& endpoints, std::vector<std::string> args);

} // namespace lockscope::process
