#include "support/child_processes.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace lockscope::test {

namespace {

struct ProcessStat {
    std::string name;
    char state = '?';
    pid_t parent = 0;
};

// A /proc stat file (a process's or one of its threads') is "pid (comm) state ppid ...": comm
// may hold spaces and parentheses, so the fields after it are read from the last ')'.
std::optional<ProcessStat> statAt(const std::filesystem::path& statFile) {
    std::ifstream file(statFile);
    std::string line;
    if (!std::getline(file, line))
        return std::nullopt;
    const auto open = line.find('(');
    const auto close = line.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
    ProcessStat stat;
    stat.name = line.substr(open + 1, close - open - 1);
    std::istringstream rest(line.substr(close + 1));
    if (!(rest >> stat.state >> stat.parent))
        return std::nullopt;
    return stat;
}

std::optional<ProcessStat> statOf(const std::string& pid) {
    return statAt("/proc/" + pid + "/stat");
}

} // namespace

std::set<pid_t> childProcesses(pid_t parent, const std::string& name) {
    std::set<pid_t> children;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string pid = entry.path().filename();
        if (pid.find_first_not_of("0123456789") != std::string::npos)
            continue;
        const auto stat = statOf(pid);
        if (stat && stat->name == name && stat->parent == parent)
            children.insert(static_cast<pid_t>(std::stol(pid)));
    }
    return children;
}

bool processAlive(pid_t pid) {
    const auto stat = statOf(std::to_string(pid));
    return stat && stat->state != 'Z';
}

bool everyThreadStopped(pid_t pid) {
    std::error_code error;
    for (const auto& task :
         std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
        const auto stat = statAt(task.path() / "stat");
        if (!stat || stat->state != 'T')
            return false;
    }
    return !error;
}

} // namespace lockscope::test
