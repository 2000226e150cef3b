#include "support/etcd_auth.h"

#include "support/etcdctl.h"

#include <vector>

namespace lockscope::test {

std::string enableAuthentication(const std::string& endpoints) {
    const std::string role = authUser + "-role";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"user", "add", "root:rootpw"},
          {"user", "add", authUser + ":" + authPassword},
          {"role", "add", role},
          {"role", "grant-permission", role, "--prefix=true", "readwrite", "/" + authUser + "/"},
          {"user", "grant-role", authUser, role},
          {"auth", "enable"}}) {
        const CommandResult result = etcdctl(endpoints, args);
        if (result.exitCode != 0)
            return "etcdctl failed: " + result.output;
    }
    return {};
}

} // namespace lockscope::test
