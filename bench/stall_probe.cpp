#include "stall_probe.h"

namespace lockscope::bench {

StallProbe::StallProbe()
    : last_(std::chrono::steady_clock::now()) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(Interval);
    QObject::connect(&timer_, &QTimer::timeout, &timer_, [this] {
        const auto now = std::chrono::steady_clock::now();
        longest_ = std::max(longest_, now - last_ - Interval);
        last_ = now;
    });
    timer_.start();
}

} // namespace lockscope::bench
