#include "process/child_process.h"

#include "process/spawn.h"
#include "process/write_all.h"

#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lockscope::process {

ChildProcess::ChildProcess(std::vector<std::string> argv, std::vector<std::string> extraEnv,
                           Input input) {
    int fds[2];
    int inFds[2] = {-1, -1};
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return;
    // A socket rather than a pipe: writing to a child that has exited then fails (writeAll)
    // instead of raising SIGPIPE in us.
    if (input == Input::Pipe && ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, inFds) != 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return;
    }
    const Spawned child = spawn({.argv = std::move(argv),
                                 .environment = std::move(extraEnv),
                                 .outputFd = fds[1],
                                 .inputFd = inFds[0]});
    ::close(fds[1]);
    if (inFds[0] >= 0)
        ::close(inFds[0]);
    if (!child.ok()) {
        ::close(fds[0]);
        if (inFds[1] >= 0)
            ::close(inFds[1]);
        return;
    }
    pid_ = child.pid;
    out_ = fds[0];
    in_ = inFds[1];
}

ChildProcess::~ChildProcess() {
    if (pid_ > 0 && !exitCode_)
        stopProcess(pid_, SIGKILL, std::chrono::milliseconds(0));
    if (out_ >= 0)
        ::close(out_);
    if (in_ >= 0)
        ::close(in_);
}

bool ChildProcess::writeLine(const std::string& line) {
    return in_ >= 0 && writeAll(in_, line + "\n");
}

std::optional<std::string> ChildProcess::readLine(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        const auto newline = buffer_.find('\n');
        if (newline != std::string::npos) {
            std::string line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            return line;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0 || out_ < 0)
            return std::nullopt;
        pollfd p{out_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            return std::nullopt;
        char chunk[4096];
        const ssize_t n = ::read(out_, chunk, sizeof(chunk));
        if (n <= 0)
            return std::nullopt;
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

void ChildProcess::signal(int sig) {
    if (pid_ > 0 && !exitCode_)
        ::kill(pid_, sig);
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
    if (!exitCode_ && pid_ > 0)
        exitCode_ = waitForExit(pid_, timeout);
    return exitCode_;
}

} // namespace lockscope::process
