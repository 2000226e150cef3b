#pragma once

#include <QTimer>
#include <chrono>

namespace lockscope::bench {

// A timer on the GUI thread due every few milliseconds: how late it fires is how long the
// thread was busy elsewhere, so its longest lateness is the thread's longest stall (give or take
// the interval). Runs from construction until destruction, in the thread's event loop.
class StallProbe {
public:
    static constexpr std::chrono::milliseconds Interval{5};

    StallProbe();
    std::chrono::steady_clock::duration longest() const { return longest_; }

private:
    QTimer timer_;
    std::chrono::steady_clock::time_point last_;
    std::chrono::steady_clock::duration longest_{};
};

// A stall (longest()) in milliseconds, as the figures print it.
inline double milliseconds(std::chrono::steady_clock::duration stall) {
    return std::chrono::duration<double, std::milli>(stall).count();
}

} // namespace lockscope::bench
