#pragma once

#include "app/ctl/signal_wait.h"

#include <mutex>
#include <optional>
#include <pthread.h>

namespace lockscope {

// A value the client's thread hands the thread that made the mailbox, which waits for it in
// nextSignal(): put() wakes that thread, so the value is acted on now, not at the next tick.
// Shared with the callback that fills it (make_shared), which may come after the reader stopped
// reading; the reader must outlive the callback (lockscopectl's main thread does).
template <class T> class SignalMailbox {
public:
    SignalMailbox()
        : reader_(::pthread_self()) {}
    void put(T value) {
        std::lock_guard lock(mutex_);
        value_ = std::move(value);
        // Under the lock: a reader that has read the value was signalled before it could return.
        wakeSignalWait(reader_);
    }
    std::optional<T> read() const {
        std::lock_guard lock(mutex_);
        return value_;
    }

private:
    const pthread_t reader_;
    mutable std::mutex mutex_;
    std::optional<T> value_;
};

} // namespace lockscope
