#include "app/ctl/stdin_lines.h"

#include <poll.h>
#include <unistd.h>

namespace lockscope {

std::vector<std::string> StdinLines::take() {
    std::vector<std::string> lines;
    while (!closed_) {
        pollfd input{STDIN_FILENO, POLLIN, 0};
        if (::poll(&input, 1, 0) <= 0 || !(input.revents & (POLLIN | POLLHUP)))
            break;
        char buffer[4096];
        const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (got <= 0) {
            closed_ = true; // end of input, or an error that would only repeat
            if (!pending_.empty())
                lines.push_back(std::move(pending_));
            pending_.clear();
            break;
        }
        pending_.append(buffer, static_cast<std::size_t>(got));
        for (std::size_t newline; (newline = pending_.find('\n')) != std::string::npos;) {
            lines.push_back(pending_.substr(0, newline));
            pending_.erase(0, newline + 1);
        }
    }
    return lines;
}

} // namespace lockscope
