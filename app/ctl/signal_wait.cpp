#include "app/ctl/signal_wait.h"

#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>

namespace lockscope {

namespace {
sigset_t holdSignals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
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
    return sig > 0 ? sig : 0;
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
    start([outcome](const etcd::Error& e) {
        std::lock_guard lock(outcome->mutex);
        outcome->error = e;
    });
    while (!read()) {
        if (isTermination(nextSignal()) && !interrupted) {
            interrupted = true;
            cancel();
        }
    }
    return *read();
}

} // namespace lockscope
