#include "process/go_anchor.h"

#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace lockscope::process {

const char* const goAnchorMissing =
    "Go is not installed: apt-get install golang-go golang-etcd-server-dev, or run "
    "scripts/deps.sh (then configure the build again)";

std::string goAnchorPath() {
    if (const char* set = std::getenv("LOCKSCOPE_GO_ANCHOR"); set && *set)
        return set;
    const std::string built = LOCKSCOPE_GO_ANCHOR_PATH;
    return !built.empty() && ::access(built.c_str(), X_OK) == 0 ? built : std::string();
}

GoAnchor::GoAnchor(const std::string& endpoints, std::vector<std::string> commandAndArgs) {
    std::vector<std::string> argv = {goAnchorPath(), "--endpoints", endpoints};
    argv.insert(argv.end(), commandAndArgs.begin(), commandAndArgs.end());
    process_ = std::make_unique<ChildProcess>(std::move(argv), std::vector<std::string>{},
                                              ChildProcess::Input::Pipe);
    if (!process_->started())
        error_ = "cannot run " + goAnchorPath();
}

std::optional<std::vector<std::string>> GoAnchor::awaitLine(const std::string& word,
                                                            std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        const auto line = process_->readLine(std::max(left, std::chrono::milliseconds(0)));
        if (!line)
            return std::nullopt;
        if (line->rfind("error: ", 0) == 0) {
            error_ = *line;
            return std::nullopt;
        }
        std::istringstream in(*line);
        std::string first;
        in >> first;
        if (first != word)
            continue;
        std::vector<std::string> fields;
        for (std::string field; in >> field;)
            fields.push_back(field);
        return fields;
    }
}

} // namespace lockscope::process
