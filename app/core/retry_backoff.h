#pragma once

#include "etcdclient/error.h"

#include <chrono>
#include <functional>
#include <string>

namespace lockscope {

// When a lock waiter queues again after its wait failed: exponential backoff with full jitter
// (a uniformly random delay up to a ceiling that doubles per failure, capped), so waiters that
// failed together do not all come back at once. Shared by `lockscopectl lock` and the window's
// Acquire. Not thread-safe; one per waiter.
class RetryBackoff {
public:
    // A uniform random number in [0, 1).
    using Random = std::function<double()>;

    static constexpr std::chrono::milliseconds defaultFirst{100};
    static constexpr std::chrono::milliseconds defaultCap{5000};

    explicit RetryBackoff(Random random = systemRandom(),
                          std::chrono::milliseconds first = defaultFirst,
                          std::chrono::milliseconds cap = defaultCap);

    // Counts one more failed attempt and returns how long to wait before the next one.
    std::chrono::milliseconds next();
    // Failed attempts so far.
    int attempts() const { return attempts_; }

    // Whether what failed with `error` may work if tried again (a waiter queueing again, a
    // watch reconnecting): a lost session or key and a cluster that did not answer pass; a
    // refusal (permission, credentials, bad request) or the user's own cancel do not.
    static bool worthRetrying(const etcd::Error& error);
    // "1.5": a delay in seconds with one decimal, as the retry messages show it.
    static std::string seconds(std::chrono::milliseconds delay);

private:
    static Random systemRandom();

    Random random_;
    std::chrono::milliseconds first_;
    std::chrono::milliseconds cap_;
    int attempts_ = 0;
};

} // namespace lockscope
