#include "widgets/frame_pacer.h"

namespace lockscope {

FramePacer::FramePacer(std::chrono::milliseconds interval, std::function<void()> heldBack,
                       QObject* parent)
    : QObject(parent)
    , interval_(interval)
    , heldBack_(std::move(heldBack)) {
    timer_.setSingleShot(true);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, [this] {
        sinceDone_.start();
        heldBack_();
    });
}

bool FramePacer::ask() {
    if (timer_.isActive())
        return false; // already due at this interval's end
    const std::chrono::milliseconds since{sinceDone_.isValid() ? sinceDone_.elapsed()
                                                               : interval_.count()};
    if (since >= interval_) {
        sinceDone_.start();
        return true;
    }
    timer_.start(interval_ - since);
    return false;
}

} // namespace lockscope
