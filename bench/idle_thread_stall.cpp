#include "idle_thread_stall.h"

namespace lockscope::bench {

IdleThreadStall::~IdleThreadStall() {
    quit();
    wait();
}

std::chrono::steady_clock::duration IdleThreadStall::longest() {
    quit(); // before exec() has begun too: it then returns at once
    wait();
    return longest_;
}

void IdleThreadStall::run() {
    const StallProbe probe;
    exec();
    longest_ = probe.longest();
}

} // namespace lockscope::bench
