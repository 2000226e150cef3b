#include "support/black_hole_proxy.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace lockscope::test {

namespace {

sockaddr_in loopback(uint16_t port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    return address;
}

// One direction of a proxied connection: bytes read from `from` wait in `pending` until `to`
// takes them.
struct Direction {
    int from;
    int to;
    std::string pending;
};

// A client's connection and ours to the target, both non-blocking.
struct Connection {
    Connection(int client, int server)
        : ways{Direction{client, server, {}}, Direction{server, client, {}}} {}
    ~Connection() {
        ::close(ways[0].from);
        ::close(ways[1].from);
    }
    Direction ways[2];
};

// Moves what `way` can move now; false when the connection ended (EOF or an error).
bool pump(Direction& way, short revents) {
    if (way.pending.empty() && (revents & (POLLIN | POLLHUP | POLLERR))) {
        char buffer[65536];
        const ssize_t got = ::read(way.from, buffer, sizeof buffer);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
            return false;
        if (got > 0)
            way.pending.assign(buffer, static_cast<size_t>(got));
    } else if (!way.pending.empty() && (revents & (POLLOUT | POLLHUP | POLLERR))) {
        const ssize_t sent = ::send(way.to, way.pending.data(), way.pending.size(), MSG_NOSIGNAL);
        if (sent < 0 && errno != EAGAIN && errno != EINTR)
            return false;
        if (sent > 0)
            way.pending.erase(0, static_cast<size_t>(sent));
    }
    return true;
}

} // namespace

BlackHoleProxy::BlackHoleProxy(const std::string& target)
    : target_(target) {
    int wakePipe[2];
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address = loopback(0);
    socklen_t length = sizeof address;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
        ::listen(listener_, 64) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0 ||
        ::pipe2(wakePipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        error_ = std::string("proxy cannot listen: ") + std::strerror(errno);
        return;
    }
    wakeRead_ = wakePipe[0];
    wakeWrite_ = wakePipe[1];
    endpoint_ = "127.0.0.1:" + std::to_string(ntohs(address.sin_port));
    thread_ = std::thread([this] { run(); });
}

BlackHoleProxy::~BlackHoleProxy() {
    stopping_ = true;
    wake();
    if (thread_.joinable())
        thread_.join();
    for (int fd : {listener_, wakeRead_, wakeWrite_})
        if (fd >= 0)
            ::close(fd);
}

void BlackHoleProxy::setBlackHole(bool on) {
    blackHole_ = on;
    wake();
}

void BlackHoleProxy::wake() {
    if (wakeWrite_ >= 0) [[maybe_unused]]
        const ssize_t written = ::write(wakeWrite_, "x", 1);
}

void BlackHoleProxy::run() {
    const uint16_t targetPort =
        static_cast<uint16_t>(std::stoi(target_.substr(target_.rfind(':') + 1)));
    std::vector<std::unique_ptr<Connection>> connections;
    while (!stopping_) {
        const bool passing = !blackHole_;
        std::vector<pollfd> fds = {{listener_, POLLIN, 0}, {wakeRead_, POLLIN, 0}};
        if (passing)
            for (auto& connection : connections)
                for (auto& way : connection->ways)
                    fds.push_back(way.pending.empty() ? pollfd{way.from, POLLIN, 0}
                                                      : pollfd{way.to, POLLOUT, 0});
        if (::poll(fds.data(), fds.size(), -1) < 0)
            continue; // EINTR
        if (fds[1].revents) {
            char drained[64];
            while (::read(wakeRead_, drained, sizeof drained) > 0) {
            }
        }
        if (passing) {
            size_t next = 2;
            std::erase_if(connections, [&](auto& connection) {
                bool open = true;
                for (auto& way : connection->ways)
                    open = pump(way, fds[next++].revents) && open;
                return !open;
            });
        }
        if (fds[0].revents & POLLIN) {
            const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
            if (client < 0)
                continue;
            const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            const sockaddr_in address = loopback(targetPort);
            if (server < 0 || ::connect(server, reinterpret_cast<const sockaddr*>(&address),
                                        sizeof address) != 0) {
                ::close(client);
                if (server >= 0)
                    ::close(server);
                continue;
            }
            ::fcntl(server, F_SETFL, O_NONBLOCK);
            connections.push_back(std::make_unique<Connection>(client, server));
        }
    }
}

} // namespace lockscope::test
