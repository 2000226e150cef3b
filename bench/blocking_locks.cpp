#include "blocking_locks.h"

#include <future>

namespace lockscope::bench {

std::shared_ptr<etcd::Session> openSession(etcd::Client& client) {
    std::promise<etcd::Result<std::shared_ptr<etcd::Session>>> made;
    etcd::Session::create(client, 30, [&](auto s) { made.set_value(std::move(s)); });
    auto s = made.get_future().get();
    return s ? s.value() : nullptr;
}

void lockNow(etcd::Mutex& mutex) {
    std::promise<void> done;
    mutex.lock([&](const etcd::Error&) { done.set_value(); });
    done.get_future().wait();
}

void unlockNow(etcd::Mutex& mutex) {
    std::promise<void> done;
    mutex.unlock([&](auto) { done.set_value(); });
    done.get_future().wait();
}

} // namespace lockscope::bench
