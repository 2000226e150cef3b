#pragma once

#include <chrono>
#include <functional>

namespace lockscope::bench {

// Runs this thread's event loop until `done` holds (checked every few milliseconds) or
// `timeout` has passed.
void runEventsUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);
// Lets queued work (a coalesced redraw, the first paint, a lab's workers) run for `time`.
void runEventsFor(std::chrono::milliseconds time);

} // namespace lockscope::bench
