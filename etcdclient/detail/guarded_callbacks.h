#pragma once

#include <memory>
#include <mutex>

namespace etcd::detail {

// User callbacks that a handle can disarm from any thread: once disarm() returns, no callback
// is running (unless disarm was called from inside one) and none will start.
template <class Callbacks> class GuardedCallbacks {
public:
    explicit GuardedCallbacks(Callbacks callbacks)
        : callbacks_(std::make_shared<Callbacks>(std::move(callbacks))) {}

    template <class F> void with(F&& f) {
        std::lock_guard lock(mutex_);
        if (auto keep = callbacks_) // keeps the callbacks alive if one of them disarms
            f(*keep);
    }
    void disarm() {
        std::lock_guard lock(mutex_);
        callbacks_.reset();
    }
    bool armed() {
        std::lock_guard lock(mutex_);
        return callbacks_ != nullptr;
    }

private:
    std::recursive_mutex mutex_;
    std::shared_ptr<Callbacks> callbacks_;
};

} // namespace etcd::detail
