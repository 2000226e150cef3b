#include "app/core/terminal_password_prompt.h"

#include "process/write_all.h"

#include <QCoreApplication>
#include <array>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace lockscope {

namespace {

// A signal that ends the process while echo is off would leave the user's shell without echo:
// the handler puts the terminal back (tcsetattr is async-signal-safe), then dies as it would have.
constexpr std::array restoringSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
int terminalFd = -1;
termios savedSettings{};

void restoreAndRaise(int signal) {
    ::tcsetattr(terminalFd, TCSAFLUSH, &savedSettings);
    [[maybe_unused]] const auto written = ::write(terminalFd, "\n", 1);
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

// Echo off for its lifetime, the terminal's settings and the signal handlers put back after.
class EchoOff {
public:
    explicit EchoOff(int fd) {
        if (::tcgetattr(fd, &savedSettings) != 0)
            return;
        terminalFd = fd;
        struct sigaction action {};
        action.sa_handler = restoreAndRaise;
        sigemptyset(&action.sa_mask);
        for (std::size_t i = 0; i < restoringSignals.size(); ++i)
            ::sigaction(restoringSignals[i], &action, &previous_[i]);
        termios quiet = savedSettings;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        quiet.c_lflag |= ECHONL; // the Enter still moves to the next line
        active_ = ::tcsetattr(fd, TCSAFLUSH, &quiet) == 0;
    }
    ~EchoOff() {
        if (terminalFd < 0)
            return;
        ::tcsetattr(terminalFd, TCSAFLUSH, &savedSettings);
        for (std::size_t i = 0; i < restoringSignals.size(); ++i)
            ::sigaction(restoringSignals[i], &previous_[i], nullptr);
        terminalFd = -1;
    }
    EchoOff(const EchoOff&) = delete;
    EchoOff& operator=(const EchoOff&) = delete;

    bool active() const { return active_; }

private:
    std::array<struct sigaction, restoringSignals.size()> previous_{};
    bool active_ = false;
};

// One line, without its newline; std::nullopt when the input ends first.
std::optional<std::string> readLine(int fd) {
    std::string line;
    for (;;) {
        char c = 0;
        const ssize_t n = ::read(fd, &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return std::nullopt;
        if (c == '\n')
            return line;
        line += c;
    }
}

} // namespace

std::optional<std::string> askPasswordOnTerminal(const QString& user, QString& error) {
    const QString otherWays = QCoreApplication::translate(
                                  "TerminalPasswordPrompt",
                                  "give it with --password, ETCDCTL_PASSWORD or --user %1:password")
                                  .arg(user);
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        error = QCoreApplication::translate("TerminalPasswordPrompt",
                                            "no terminal to ask the password of user %1 on; %2")
                    .arg(user, otherWays);
        return std::nullopt;
    }
    std::optional<std::string> password;
    {
        EchoOff echoOff(fd);
        if (!echoOff.active())
            error = QCoreApplication::translate(
                        "TerminalPasswordPrompt",
                        "cannot turn off echo on the terminal to ask the password of "
                        "user %1; %2")
                        .arg(user, otherWays);
        else if (process::writeAll(
                     fd, QCoreApplication::translate("TerminalPasswordPrompt", "Password: ")
                             .toStdString()))
            password = readLine(fd);
        if (echoOff.active() && !password)
            error =
                QCoreApplication::translate("TerminalPasswordPrompt",
                                            "no password read for user %1 (the input ended); %2")
                    .arg(user, otherWays);
    }
    ::close(fd);
    return password;
}

} // namespace lockscope
