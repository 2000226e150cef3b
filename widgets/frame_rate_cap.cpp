#include "widgets/frame_rate_cap.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWidget>
#include <utility>

namespace lockscope {

FrameRateCap::FrameRateCap(QWidget* window, std::chrono::milliseconds interval)
    : QObject(window)
    , window_(window)
    , pacer_(interval, [this] { paintPass(); }) {
    window->installEventFilter(this);
}

void FrameRateCap::paintApart(QAbstractScrollArea* view) {
    QWidget* viewport = view->viewport();
    viewport->setAttribute(Qt::WA_OpaquePaintEvent);
    apart_.insert(viewport);
    viewport->installEventFilter(this);
    connect(viewport, &QObject::destroyed, this, [this, viewport] {
        apart_.remove(viewport);
        painted_.remove(viewport);
        turned_.remove(viewport);
    });
    // A scroll has moved its pixels already: whole, in the next pass, and soon.
    const auto scrolled = [this, viewport] {
        painted_.remove(viewport);
        viewport->update();
        if (!due_.contains(viewport)) {
            due_.append(viewport);
            postTurn();
        }
    };
    connect(view->verticalScrollBar(), &QAbstractSlider::valueChanged, viewport, scrolled);
    connect(view->horizontalScrollBar(), &QAbstractSlider::valueChanged, viewport, scrolled);
}

// Qt's widgets repaint a window when it receives an UpdateRequest; until one is handled, Qt
// posts no other, so holding one back holds back every change made meanwhile.
bool FrameRateCap::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_) {
        if (event->type() != QEvent::UpdateRequest || releasing_)
            return false;
        if (pacer_.ask())
            paintPass();
        return true;
    }
    auto* widget = static_cast<QWidget*>(watched);
    if (!apart_.contains(widget))
        return false;
    switch (event->type()) {
    case QEvent::Paint: return leavesPaint(widget, static_cast<QPaintEvent*>(event));
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::Hide: painted_.remove(widget); return false;
    default: return false;
    }
}

void FrameRateCap::paintPass(QWidget* turn) {
    turn_ = turn;
    inPass_ = true;
    releasing_ = true;
    if (turn) {
        turn->repaint(); // sends the window its UpdateRequest, and posts none for later
    } else {
        QEvent request(QEvent::UpdateRequest);
        QCoreApplication::sendEvent(window_, &request);
    }
    releasing_ = false;
    inPass_ = false;
    turn_ = nullptr;
}

bool FrameRateCap::leavesPaint(QWidget* widget, QPaintEvent* event) {
    if (!inPass_ || widget == turn_ || !painted_.contains(widget)) {
        QPainter painter(widget); // what Qt's autoFillBackground did, before the widget paints
        painter.fillRect(event->rect(), widget->palette().brush(widget->backgroundRole()));
        painted_.insert(widget);
        return false;
    }
    if (turned_.contains(widget)) {
        if (!later_.contains(widget))
            later_.append(widget);
    } else if (!due_.contains(widget)) {
        due_.append(widget);
        postTurn();
    }
    return true;
}

void FrameRateCap::postTurn() {
    if (!std::exchange(turnPosted_, true))
        QMetaObject::invokeMethod(this, &FrameRateCap::paintNextApart, Qt::QueuedConnection);
}

void FrameRateCap::paintNextApart() {
    turnPosted_ = false;
    while (!due_.isEmpty()) {
        const QPointer<QWidget> widget = due_.takeFirst();
        if (!widget || !widget->isVisible())
            continue;
        turned_.insert(widget);
        paintPass(widget);
        break;
    }
    if (!due_.isEmpty()) {
        postTurn();
        return;
    }
    // The round is over: what changed after its turn goes in the next frame.
    turned_.clear();
    for (const QPointer<QWidget>& widget : std::exchange(later_, {}))
        if (widget)
            widget->update();
}

} // namespace lockscope
