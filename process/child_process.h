#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lockscope::process {

// A child process whose stdout (and stderr) is read line by line, e.g. a real `etcdctl lock`
// that prints its key once it holds the lock. `extraEnvironment` (NAME=value) adds to or
// replaces the variables it inherits. With `Input::Pipe` its stdin is a socket writeLine() writes
// to (closed when destroyed); otherwise it shares ours. Killed when destroyed.
class ChildProcess {
public:
    enum class Input { Ours, Pipe };
    explicit ChildProcess(std::vector<std::string> argv,
                          std::vector<std::string> extraEnvironment = {},
                          Input input = Input::Ours);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    bool started() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }
    // The next line of output, or nothing if none came within `timeout`.
    std::optional<std::string> readLine(std::chrono::milliseconds timeout);
    // Writes `line` and a newline to its stdin (Input::Pipe); false when that failed.
    bool writeLine(const std::string& line);
    void signal(int sig);
    // The exit code (128 + signal if killed), or nothing if it did not exit within `timeout`.
    std::optional<int> wait(std::chrono::milliseconds timeout);

private:
    pid_t pid_ = -1;
    int out_ = -1;
    int in_ = -1;
    std::string buffer_;
    std::optional<int> exitCode_;
};

} // namespace lockscope::process
