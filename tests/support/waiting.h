#pragma once

#include "etcdclient/mutex.h"
#include "etcdclient/session.h"

#include <chrono>
#include <functional>
#include <future>
#include <thread>

namespace lockscope::test {

// Polls `condition` until it holds or `timeout` passes.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

// Blocking helpers over the asynchronous Session and Mutex, for tests.
inline std::shared_ptr<etcd::Session> createSession(etcd::Client& client, int64_t ttl) {
    std::promise<etcd::Result<std::shared_ptr<etcd::Session>>> made;
    etcd::Session::create(client, ttl, [&](auto s) { made.set_value(std::move(s)); });
    auto result = made.get_future().get();
    return result ? result.value() : nullptr;
}

// Starts lock() and returns a future for its outcome.
inline std::future<etcd::Error> lockAsync(etcd::Mutex& mutex) {
    auto promise = std::make_shared<std::promise<etcd::Error>>();
    mutex.lock([promise](const etcd::Error& e) { promise->set_value(e); });
    return promise->get_future();
}

inline etcd::Result<bool> unlockNow(etcd::Mutex& mutex) {
    std::promise<etcd::Result<bool>> done;
    mutex.unlock([&](etcd::Result<bool> r) { done.set_value(std::move(r)); });
    return done.get_future().get();
}

inline etcd::Result<bool> tryLockNow(etcd::Mutex& mutex) {
    std::promise<etcd::Result<bool>> done;
    mutex.tryLock([&](etcd::Result<bool> r) { done.set_value(std::move(r)); });
    return done.get_future().get();
}

} // namespace lockscope::test
