#include "widgets/cached_scroll_bar.h"

#include <QEvent>
#include <QPainter>
#include <QStyleOptionSlider>

namespace lockscope {

namespace {
// What stays put while the value changes: the picture. The pages either side of the handle
// move with it, like the handle and the arrows (which show whether they can move it).
const QStyle::SubControls Still =
    QStyle::SC_ScrollBarGroove | QStyle::SC_ScrollBarFirst | QStyle::SC_ScrollBarLast;
} // namespace

CachedScrollBar::CachedScrollBar(Qt::Orientation orientation, QWidget* parent)
    : QScrollBar(orientation, parent) {
    setAttribute(Qt::WA_OpaquePaintEvent); // every pixel is painted, the background too
}

void CachedScrollBar::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    // What a plain scroll bar shows through: the window's background.
    const QColor background = palette().color(QPalette::Window);
    if (underMouse() || pressed_) {
        // Hovered and pressed parts are QScrollBar's own state, which only it can draw.
        painter.fillRect(rect(), background);
        painter.end();
        QScrollBar::paintEvent(event);
        return;
    }
    // As QScrollBar draws itself with no part hovered.
    QStyleOptionSlider option;
    initStyleOption(&option);
    const Look look{size(), devicePixelRatio(), option.state};
    if (look != pictured_) {
        picture_ = QPixmap(size() * look.pixelRatio);
        picture_.setDevicePixelRatio(look.pixelRatio);
        picture_.fill(background);
        QPainter onPicture(&picture_);
        option.subControls = Still;
        style()->drawComplexControl(QStyle::CC_ScrollBar, &option, &onPicture, this);
        pictured_ = look;
    }
    painter.drawPixmap(0, 0, picture_);
    option.subControls = QStyle::SubControls(QStyle::SC_All) & ~Still;
    style()->drawComplexControl(QStyle::CC_ScrollBar, &option, &painter, this);
}

void CachedScrollBar::changeEvent(QEvent* event) {
    switch (event->type()) {
    case QEvent::StyleChange: // a style sheet too, under the same QStyle object
    case QEvent::PaletteChange:
    case QEvent::LayoutDirectionChange:
    case QEvent::EnabledChange: pictured_.reset(); break;
    default: break;
    }
    QScrollBar::changeEvent(event);
}

void CachedScrollBar::mousePressEvent(QMouseEvent* event) {
    pressed_ = true;
    QScrollBar::mousePressEvent(event);
}

void CachedScrollBar::mouseReleaseEvent(QMouseEvent* event) {
    pressed_ = false;
    QScrollBar::mouseReleaseEvent(event);
    update(); // the plain look of the press is replaced
}

} // namespace lockscope
