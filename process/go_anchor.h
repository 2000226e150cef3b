#pragma once

#include "process/child_process.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lockscope::process {

// bench/go/main.go built (cmake/GoAnchor.cmake): etcd 3.4's own Go Mutex, Election and RWMutex
// recipe in one process, the reference the tests and lockscope-bench compare ours with.

// Its path: $LOCKSCOPE_GO_ANCHOR when set, else the one the build made; empty when the build
// found no Go (and the variable is unset).
std::string goAnchorPath();
// Why the anchor is missing and what to do about it.
extern const char* const goAnchorMissing;

// One running anchor command (main.go lists them and the lines they print). Its stdin is a
// socket, for the election's commands. Killed when destroyed.
class GoAnchor {
public:
    // Starts `command args...` against `endpoints` (comma-separated).
    GoAnchor(const std::string& endpoints, std::vector<std::string> commandAndArgs);

    // The fields after `word` of the next line starting with it (lines before it, such as
    // "session", are skipped); nothing when none came within `timeout` or it printed "error:"
    // (then error() says what).
    std::optional<std::vector<std::string>> awaitLine(const std::string& word,
                                                      std::chrono::milliseconds timeout);
    const std::string& error() const { return error_; }
    // Whether a line starting with `word` comes within `timeout`, as awaitLine.
    bool saw(const std::string& word, std::chrono::milliseconds timeout) {
        return awaitLine(word, timeout).has_value();
    }
    ChildProcess& process() { return *process_; }

private:
    std::unique_ptr<ChildProcess> process_;
    std::string error_;
};

} // namespace lockscope::process
