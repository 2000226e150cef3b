#include "process/write_all.h"

#include <cerrno>
#include <sys/socket.h>
#include <unistd.h>

namespace lockscope::process {

bool writeAll(int fd, std::string_view text) {
    while (!text.empty()) {
        ssize_t n = ::send(fd, text.data(), text.size(), MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK) // a terminal or a pipe
            n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

} // namespace lockscope::process
