#include "support/etcdctl.h"

#include "process/etcdctl_args.h"

#include <array>
#include <cstdio>
#include <sys/wait.h>

namespace lockscope::test {

namespace {
std::string quote(const std::string& arg) {
    std::string out = "'";
    for (char c : arg)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}
} // namespace

CommandResult etcdctl(const std::string& endpoints, const std::vector<std::string>& args) {
    std::string command = "ETCDCTL_API=3 etcdctl --endpoints=" + quote(endpoints);
    for (const auto& a : args)
        command += " " + quote(a);
    command += " 2>&1";
    CommandResult result;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return result;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe))
        result.output += buffer.data();
    const int status = ::pclose(pipe);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

namespace {
std::unique_ptr<process::ChildProcess> runningEtcdctl(const std::string& endpoints,
                                                      const std::vector<std::string>& args) {
    return std::make_unique<process::ChildProcess>(process::etcdctlArgs(endpoints, args),
                                                   std::vector<std::string>{"ETCDCTL_API=3"});
}
} // namespace

std::unique_ptr<process::ChildProcess>
etcdctlLock(const std::string& endpoints, const std::string& name, std::vector<std::string> args) {
    args.insert(args.begin(), {"lock", name});
    return runningEtcdctl(endpoints, args);
}

std::unique_ptr<process::ChildProcess>
etcdctlElect(const std::string& endpoints, const std::string& name, const std::string& proposal) {
    return runningEtcdctl(endpoints, {"elect", name, proposal});
}

std::optional<std::string> pollLine(process::ChildProcess& child) {
    // readLine looks at the pipe only while time is left: 0 ms would never read it.
    return child.readLine(std::chrono::milliseconds(10));
}

} // namespace lockscope::test
