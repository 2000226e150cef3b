#include "widgets/frame_rate_cap.h"

#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace lockscope {

FrameRateCap::FrameRateCap(QWidget* window, std::chrono::milliseconds interval)
    : QObject(window)
    , window_(window)
    , pacer_(interval, [this] { paintHeldBack(); }) {
    window->installEventFilter(this);
}

// Qt's widgets repaint a window when it receives an UpdateRequest; until one is handled, Qt
// posts no other, so holding one back holds back every change made meanwhile.
bool FrameRateCap::eventFilter(QObject* watched, QEvent* event) {
    if (watched != window_ || event->type() != QEvent::UpdateRequest || releasing_)
        return false;
    return !pacer_.ask();
}

void FrameRateCap::paintHeldBack() {
    releasing_ = true;
    QEvent request(QEvent::UpdateRequest);
    QCoreApplication::sendEvent(window_, &request);
    releasing_ = false;
}

} // namespace lockscope
