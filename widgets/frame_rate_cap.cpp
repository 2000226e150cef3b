#include "widgets/frame_rate_cap.h"

#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace lockscope {

FrameRateCap::FrameRateCap(QWidget* window, std::chrono::milliseconds interval)
    : QObject(window)
    , window_(window)
    , interval_(interval) {
    heldBack_.setSingleShot(true);
    heldBack_.setTimerType(Qt::PreciseTimer);
    connect(&heldBack_, &QTimer::timeout, this, &FrameRateCap::paintHeldBack);
    window->installEventFilter(this);
}

// Qt's widgets repaint a window when it receives an UpdateRequest; until one is handled, Qt
// posts no other, so holding one back holds back every change made meanwhile.
bool FrameRateCap::eventFilter(QObject* watched, QEvent* event) {
    if (watched != window_ || event->type() != QEvent::UpdateRequest)
        return false;
    const std::chrono::milliseconds since{sincePaint_.isValid() ? sincePaint_.elapsed()
                                                                : interval_.count()};
    if (since >= interval_) {
        sincePaint_.start();
        return false;
    }
    if (!heldBack_.isActive())
        heldBack_.start(interval_ - since);
    return true;
}

void FrameRateCap::paintHeldBack() {
    sincePaint_.invalidate();
    QEvent request(QEvent::UpdateRequest);
    QCoreApplication::sendEvent(window_, &request);
}

} // namespace lockscope
