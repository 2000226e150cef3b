#include "widgets/cached_scroll_bar.h"

#include <QGuiApplication>
#include <QPainter>
#include <QStyleOptionSlider>

namespace lockscope {

namespace {
const QStyle::SubControls Groove = QStyle::SC_ScrollBarGroove | QStyle::SC_ScrollBarAddPage |
                                   QStyle::SC_ScrollBarSubPage | QStyle::SC_ScrollBarFirst |
                                   QStyle::SC_ScrollBarLast;
} // namespace

CachedScrollBar::CachedScrollBar(Qt::Orientation orientation, QWidget* parent)
    : QScrollBar(orientation, parent) {
    setAttribute(Qt::WA_OpaquePaintEvent); // every pixel is painted, the background too
}

CachedScrollBar::Look CachedScrollBar::lookOf(const QStyleOptionSlider& option) const {
    return {size(), devicePixelRatio(), option.state, palette().cacheKey(), style()};
}

void CachedScrollBar::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    // What a plain scroll bar shows through: the window's background.
    const QColor background = palette().color(QPalette::Window);
    if (underMouse() || isSliderDown() || QGuiApplication::mouseButtons() != Qt::NoButton) {
        // Hovered and pressed parts are QScrollBar's own state, which only it can draw.
        painter.fillRect(rect(), background);
        painter.end();
        QScrollBar::paintEvent(event);
        return;
    }
    // As QScrollBar draws itself with no part hovered: the groove from the picture, then the
    // handle, which moves with every row a log gains, and the arrows, which the handle may
    // touch and which show whether they can move it; both are short.
    QStyleOptionSlider option;
    initStyleOption(&option);
    const Look look = lookOf(option);
    if (look != pictured_) {
        picture_ = QPixmap(size() * look.pixelRatio);
        picture_.setDevicePixelRatio(look.pixelRatio);
        picture_.fill(background);
        QPainter onPicture(&picture_);
        option.subControls = Groove;
        style()->drawComplexControl(QStyle::CC_ScrollBar, &option, &onPicture, this);
        pictured_ = look;
    }
    painter.drawPixmap(0, 0, picture_);
    option.subControls = QStyle::SubControls(QStyle::SC_All) & ~Groove;
    style()->drawComplexControl(QStyle::CC_ScrollBar, &option, &painter, this);
}

} // namespace lockscope
