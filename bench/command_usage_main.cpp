// lockscope-command-usage COMMAND ARGS...: runs the command with its output thrown away, then
// prints "<exit code> <CPU microseconds> <peak resident KiB>" of it. The bench runs commands
// through this small program because a child's ru_maxrss counts the resident set it had as the
// parent's copy between fork and exec: a command forked by a bench holding a million-key window
// read 1,306 MB. Forked from here, a command starts with a few MB.
#include <cstdio>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char* argv[]) {
    if (argc < 2) {
        std::fputs("usage: lockscope-command-usage COMMAND [ARGS...]\n", stderr);
        return 2;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::dup2(null, STDERR_FILENO);
        ::execvp(argv[1], argv + 1);
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid) {
        std::perror("lockscope-command-usage");
        return 1;
    }
    const long long cpuMicroseconds = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL +
                                      usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    std::printf("%d %lld %ld\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
                cpuMicroseconds, usage.ru_maxrss);
    return 0;
}
