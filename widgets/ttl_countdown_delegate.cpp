#include "widgets/ttl_countdown_delegate.h"

#include <QPainter>
#include <algorithm>

namespace lockscope {

TtlCountdownDelegate::TtlCountdownDelegate(int remainingRole, int grantedRole, QObject* parent)
    : PlainTextDelegate(parent)
    , remainingRole_(remainingRole)
    , grantedRole_(grantedRole) {}

double TtlCountdownDelegate::fraction(double remaining, double granted) {
    return granted > 0 ? std::clamp(remaining / granted, 0.0, 1.0) : 0.0;
}

void TtlCountdownDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    const QVariant remaining = index.data(remainingRole_);
    const QVariant granted = index.data(grantedRole_);
    if (!remaining.isValid() || !granted.isValid()) {
        PlainTextDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    paintPanel(painter, cell);

    const double filled = fraction(remaining.toDouble(), granted.toDouble());
    const QRect bar = cell.rect.adjusted(3, 3, -3, -3);
    const QColor color = filled < LowFraction ? QColor("#d32f2f") : QColor("#43a047");
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color.lighter(185));
    painter->drawRoundedRect(bar, 3, 3);
    QRect done = bar;
    done.setWidth(static_cast<int>(bar.width() * filled));
    painter->setBrush(color);
    painter->drawRoundedRect(done, 3, 3);
    painter->restore();
    paintText(painter, cell, bar, cell.text, Qt::AlignCenter,
              filled > 0.5 ? QColor(Qt::white) : cell.palette.color(QPalette::Text));
}

} // namespace lockscope
