#pragma once

#include "etcdclient/error.h"

#include <chrono>
#include <csignal>
#include <functional>
#include <pthread.h>

namespace lockscope {

// How a command that holds something in etcd (a lock, a candidacy) waits on its main thread for
// SIGINT, SIGTERM and its child's SIGCHLD, so it can release what it holds before exiting. The
// signals are blocked in every thread (blockHoldSignals, before the client starts its thread)
// and taken with sigtimedwait.

void blockHoldSignals();
// Waits up to `wait` (100 ms by default) for one of the blocked signals; 0 when none came or
// when woken by wakeSignalWait().
int nextSignal(std::chrono::milliseconds wait = std::chrono::milliseconds(100));
// From another thread (the client's, with an outcome the waiting thread reads): makes the
// current or next nextSignal() of `waiter` return at once, so the outcome is acted on now, not
// at the next 100 ms tick. `waiter` must still be running, and must have called
// blockHoldSignals() (an unblocked wake-up is ignored, and lost).
void wakeSignalWait(pthread_t waiter);
inline bool isTermination(int sig) {
    return sig == SIGINT || sig == SIGTERM;
}
// Sleeps for `delay` unless SIGINT or SIGTERM comes first: true when one did.
bool interruptedWithin(std::chrono::milliseconds delay);

// Starts an operation through `start`, handing it the callback for its outcome, and waits for
// that outcome. SIGINT or SIGTERM meanwhile calls `cancel` once, which must end the operation
// (with Cancelled, say), and sets `interrupted`.
using ErrorCallback = std::function<void(const etcd::Error&)>;
etcd::Error waitUnlessInterrupted(const std::function<void(ErrorCallback)>& start,
                                  const std::function<void()>& cancel, bool& interrupted);

} // namespace lockscope
