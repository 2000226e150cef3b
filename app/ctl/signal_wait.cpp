#include "app/ctl/signal_wait.h"

#include "app/ctl/signal_mailbox.h"

#include <memory>

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
    // Shared: the client may still hold the callback after we return.
    auto outcome = std::make_shared<SignalMailbox<etcd::Error>>();
    start([outcome](const etcd::Error& e) { outcome->put(e); });
    // No tick needed when the callback can wake us; without blockHoldSignals() it cannot.
    sigset_t blocked;
    ::pthread_sigmask(SIG_BLOCK, nullptr, &blocked);
    const std::chrono::milliseconds tick = sigismember(&blocked, WakeSignal) == 1
                                               ? std::chrono::milliseconds(std::chrono::hours(1))
                                               : std::chrono::milliseconds(100);
    while (!outcome->read()) {
        if (isTermination(nextSignal(tick)) && !interrupted) {
            interrupted = true;
            cancel();
        }
    }
    return *outcome->read();
}

} // namespace lockscope
