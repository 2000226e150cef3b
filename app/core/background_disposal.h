#pragma once

#include <functional>
#include <memory>
#include <utility>

namespace lockscope {

// Runs `free` on the thread that frees what views no longer show.
void runDisposal(std::function<void()> free);
// Waits until everything handed to disposeInBackground so far is freed (for tests: at exit the
// thread's pool waits by itself).
void waitForDisposals();

// Destroys `value` on a thread of its own, not the caller's: what a view of a million locks held
// (the monitor's table, the GUI thread's copy of it, the list's rows) takes the GUI thread a
// second and more to free. Only for values that no other thread still uses and whose
// destruction touches nothing else (no QObject).
template <class T> void disposeInBackground(T value) {
    runDisposal([held = std::make_shared<T>(std::move(value))]() mutable { held.reset(); });
}

} // namespace lockscope
