#include "process/etcdctl_args.h"

namespace lockscope::process {

std::vector<std::string> etcdctlArgs(const std::string& endpoints, std::vector<std::string> args) {
    std::vector<std::string> argv = {"etcdctl", "--endpoints=" + endpoints};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

} // namespace lockscope::process
