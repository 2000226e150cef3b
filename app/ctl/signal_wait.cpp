#include "app/ctl/signal_wait.h"

#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>

namespace lockscope {

namespace {
// Sent by wakeSignalWait(). SIGURG: its default action is to ignore it, so one from outside does
// nothing; blocked, it stays pending until taken (Linux keeps blocked signals even when their
// action is to ignore them); and wakes sent before one is taken merge into one.
constexpr int WakeSignal = SIGURG;

sigset_t holdSignals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    sigaddset(&set, WakeSignal);
    return set;
}
} // namespace

void blockHoldSignals() {
    const sigset_t blocked = holdSignals();
    ::pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
}

int nextSignal(std::chrono::milliseconds wait) {
    const sigset_t set = holdSignals();
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait);
    timespec tick{static_cast<time_t>(seconds.count()),
                  static_cast<long>(std::chrono::nanoseconds(wait - seconds).count())};
    const int sig = ::sigtimedwait(&set, nullptr, &tick);
    return sig > 0 && sig != WakeSignal ? sig : 0;
}

void wakeSignalWait(pthread_t waiter) {
    ::pthread_kill(waiter, WakeSignal);
}

bool interruptedWithin(std::chrono::milliseconds delay) {
    const auto until = std::chrono::steady_clock::now() + delay;
    for (auto left = delay; left.count() > 0;
         left = std::chrono::duration_cast<std::chrono::milliseconds>(
             until - std::chrono::steady_clock::now())) {
        if (isTermination(nextSignal(left)))
            return true;
    }
    return false;
}

etcd::Error waitUnlessInterrupted(const std::function<void(ErrorCallback)>& start,
                                  const std::function<void()>& cancel, bool& interrupted) {
    struct Outcome {
        std::mutex mutex;
        std::optional<etcd::Error> error;
    };
    auto outcome = std::make_shared<Outcome>(); // the callback may come after we return
    const auto read = [&outcome] {
        std::lock_guard lock(outcome->mutex);
        return outcome->error;
    };
    start([outcome, waiter = ::pthread_self()](const etcd::Error& e) {
        std::lock_guard lock(outcome->mutex);
        outcome->error = e;
        // Under the lock: the waiter returns only once it has read the error, so it still runs.
        wakeSignalWait(waiter);
    });
    // No tick needed when the callback can wake us; without blockHoldSignals() it cannot.
    sigset_t blocked;
    ::pthread_sigmask(SIG_BLOCK, nullptr, &blocked);
    const std::chrono::milliseconds tick = sigismember(&blocked, WakeSignal) == 1
                                               ? std::chrono::milliseconds(std::chrono::hours(1))
                                               : std::chrono::milliseconds(100);
    while (!read()) {
        if (isTermination(nextSignal(tick)) && !interrupted) {
            interrupted = true;
            cancel();
        }
    }
    return *read();
}

} // namespace lockscope
