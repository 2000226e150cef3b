#include "widgets/ttl_bar.h"

#include "widgets/ttl_countdown_delegate.h"

#include <QPainter>
#include <algorithm>

namespace lockscope {

TtlBar::TtlBar(QWidget* parent)
    : QProgressBar(parent) {
    setTextVisible(true);
    setAlignment(Qt::AlignCenter);
    setMaximumHeight(18);
}

void TtlBar::setTtl(int value, int maximum, const QString& text, bool low) {
    // QProgressBar repaints at once when a new value is far enough from the last one its own
    // paintEvent drew, which it never does here: every value would. Enabling updates again
    // asks for one paint.
    setUpdatesEnabled(false);
    setRange(0, maximum);
    setValue(std::min(value, maximum));
    setFormat(text);
    low_ = low;
    setUpdatesEnabled(true);
}

void TtlBar::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRect area = rect();
    const double filled = TtlCountdownDelegate::fraction(value(), maximum()); // setTtl: from 0
    TtlCountdownDelegate::paintBar(painter, area, static_cast<int>(area.width() * filled), low_);
    painter.setPen(TtlCountdownDelegate::textColor());
    painter.drawText(area, Qt::AlignCenter, text());
}

} // namespace lockscope
