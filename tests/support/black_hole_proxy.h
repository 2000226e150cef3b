#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace lockscope::test {

// A TCP proxy on a free loopback port in front of one endpoint ("127.0.0.1:port", no TLS), for
// partition tests: a client given endpoint() reaches the target through it. While the black
// hole is on, no byte passes either way, yet every connection stays open and new ones are
// accepted: what a client sees behind a link that silently drops everything, where nothing
// fails, only nothing answers. Bytes sent meanwhile pass once it is off. One thread of its own.
class BlackHoleProxy {
public:
    explicit BlackHoleProxy(const std::string& target);
    ~BlackHoleProxy();
    BlackHoleProxy(const BlackHoleProxy&) = delete;
    BlackHoleProxy& operator=(const BlackHoleProxy&) = delete;

    // Why it could not listen; empty when it does.
    const std::string& error() const { return error_; }
    // "127.0.0.1:port", for --endpoints.
    const std::string& endpoint() const { return endpoint_; }
    void setBlackHole(bool on);

private:
    void run();
    void wake();

    std::string target_;
    std::string endpoint_;
    std::string error_;
    int listener_ = -1;
    int wakeRead_ = -1;
    int wakeWrite_ = -1;
    std::atomic<bool> blackHole_{false};
    std::atomic<bool> stopping_{false};
    std::thread thread_;
};

} // namespace lockscope::test
