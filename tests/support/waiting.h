#pragma once

#include "etcdclient/blocking.h"

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

// Starts lock() (of a Mutex, a SingleKeyLock) and returns a future for its outcome.
template <class Lock> std::future<etcd::Error> lockAsync(Lock& lock) {
    auto promise = std::make_shared<std::promise<etcd::Error>>();
    lock.lock([promise](const etcd::Error& e) { promise->set_value(e); });
    return promise->get_future();
}

} // namespace lockscope::test
