#include "process/spawn.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace lockscope::process {

namespace {

std::string_view variableName(std::string_view assignment) {
    return assignment.substr(0, assignment.find('='));
}

// Our environment with `overrides` (NAME=value) replacing same-named variables: a program that
// takes the first of two assignments (Go does) would otherwise ignore the override.
std::vector<std::string> environmentWith(const std::vector<std::string>& overrides) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const bool overridden = std::any_of(overrides.begin(), overrides.end(), [&](auto& o) {
            return variableName(o) == variableName(*e);
        });
        if (!overridden)
            env.emplace_back(*e);
    }
    env.insert(env.end(), overrides.begin(), overrides.end());
    return env;
}

// What execvp would run, found before fork(): execvp's own search allocates.
std::optional<std::string> programPath(const std::string& program) {
    if (program.find('/') != std::string::npos)
        return program;
    const char* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        const auto colon = dirs.find(':');
        const std::string_view dir = dirs.substr(0, colon);
        const std::string candidate = (dir.empty() ? "." : std::string(dir)) + "/" + program;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
        if (colon == std::string_view::npos)
            return std::nullopt;
        dirs.remove_prefix(colon + 1);
    }
}

std::vector<char*> pointersTo(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    for (auto& s : strings)
        pointers.push_back(s.data());
    pointers.push_back(nullptr);
    return pointers;
}

} // namespace

int exitCodeOf(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Spawned spawn(const SpawnRequest& request) {
    if (request.argv.empty())
        return {-1, "no program to run"};
    const std::optional<std::string> program = programPath(request.argv.front());
    if (!program)
        return {-1, "cannot run " + request.argv.front() + ": not found in PATH"};
    std::vector<std::string> args = request.argv;
    std::vector<std::string> env = environmentWith(request.environment);
    const std::vector<char*> argv = pointersTo(args);
    const std::vector<char*> envp = pointersTo(env);
    int execError[2];
    if (::pipe2(execError, O_CLOEXEC) != 0)
        return {-1, "cannot run " + request.argv.front() + ": " + std::strerror(errno)};
    sigset_t none;
    sigemptyset(&none);
    const pid_t parent = ::getpid();

    const pid_t pid = ::fork();
    if (pid == 0) {
        if (request.dieWithParent) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) // the parent died before prctl took effect
                ::_exit(127);
        }
        if (request.ownProcessGroup)
            ::setpgid(0, 0);
        if (request.ownSession)
            ::setsid();
        if (request.inputFd >= 0)
            ::dup2(request.inputFd, STDIN_FILENO);
        if (request.outputFd >= 0) {
            ::dup2(request.outputFd, STDOUT_FILENO);
            ::dup2(request.outputFd, STDERR_FILENO);
        }
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        ::execve(program->c_str(), argv.data(), envp.data());
        const int error = errno;
        [[maybe_unused]] const ssize_t written = ::write(execError[1], &error, sizeof(error));
        ::_exit(127);
    }
    const int forkError = errno;
    ::close(execError[1]);
    if (pid < 0) {
        ::close(execError[0]);
        return {-1, "cannot run " + request.argv.front() + ": " + std::strerror(forkError)};
    }
    int error = 0;
    ssize_t got;
    do
        got = ::read(execError[0], &error, sizeof(error));
    while (got < 0 && errno == EINTR);
    ::close(execError[0]);
    if (got == static_cast<ssize_t>(sizeof(error))) {
        ::waitpid(pid, nullptr, 0);
        return {-1, "cannot run " + request.argv.front() + ": " + std::strerror(error)};
    }
    return {pid, {}};
}

std::optional<int> waitForExit(pid_t pid, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        int status = 0;
        const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
        if (reaped == pid)
            return exitCodeOf(status);
        if (reaped < 0 && errno != EINTR) // not our child, or reaped already
            return std::nullopt;
        if (std::chrono::steady_clock::now() >= deadline)
            return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void stopProcess(pid_t pid, int signal, std::chrono::milliseconds grace) {
    ::kill(pid, signal);
    if (waitForExit(pid, grace))
        return;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
}

} // namespace lockscope::process
