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

QColor TtlCountdownDelegate::fillColor(bool low) {
    return low ? QColor("#ffcc80") : QColor("#a5d6a7");
}

QColor TtlCountdownDelegate::trackColor(bool low) {
    return low ? QColor("#fff3e0") : QColor("#e8f5e9");
}

QColor TtlCountdownDelegate::edgeColor(bool low) {
    return low ? QColor("#e65100") : QColor("#2e7d32");
}

QColor TtlCountdownDelegate::textColor() {
    return QColor("#1b1b1b");
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
    const QRect area = cell.rect.adjusted(3, 3, -3, -3);
    if (!area.isEmpty())
        painter->drawPixmap(area.topLeft(),
                            bar(area.size(), static_cast<int>(area.width() * filled),
                                filled < LowFraction, painter->device()->devicePixelRatio()));
    paintText(painter, cell, area, cell.text, Qt::AlignCenter, textColor());
}

void TtlCountdownDelegate::paintBar(QPainter& painter, const QRect& area, int filled, bool low) {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(trackColor(low));
    painter.drawRoundedRect(area, 3, 3);
    painter.setBrush(fillColor(low));
    painter.drawRoundedRect(QRect(area.topLeft(), QSize(filled, area.height())), 3, 3);
    painter.setPen(edgeColor(low));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(QRectF(area).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    painter.restore();
}

const QPixmap& TtlCountdownDelegate::bar(QSize size, int filled, bool low, qreal pixelRatio) const {
    return bars_.get(BarKey{size, filled, low, pixelRatio}, [&] {
        QPixmap pixmap(size * pixelRatio);
        pixmap.setDevicePixelRatio(pixelRatio);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        paintBar(painter, QRect(QPoint(0, 0), size), filled, low);
        painter.end();
        return pixmap;
    });
}

} // namespace lockscope
