#include "widgets/plain_text_delegate.h"

#include "widgets/elided_key.h"
#include "widgets/series_palette.h"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>

namespace lockscope {

namespace {

const QStyle* styleOf(const QStyleOptionViewItem& cell) {
    return cell.widget ? cell.widget->style() : QApplication::style();
}

QPalette::ColorGroup colorGroupOf(const QStyleOptionViewItem& cell) {
    if (!(cell.state & QStyle::State_Enabled))
        return QPalette::Disabled;
    return cell.state & QStyle::State_Active ? QPalette::Normal : QPalette::Inactive;
}

} // namespace

void PlainTextDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const {
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    paintPanel(painter, cell);
    const int margin =
        styleOf(cell)->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, cell.widget) + 1;
    paintText(painter, cell, cell.rect.adjusted(margin, 0, -margin, 0), cell.text,
              cell.displayAlignment);
}

void PlainTextDelegate::initStyleOption(QStyleOptionViewItem* option,
                                        const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    if (markRole_ >= 0 && index.data(markRole_).toBool()) {
        // Translucent over the alternating rows, so the marked rows stay rows of the table.
        QColor mark = pickedSessionColor();
        mark.setAlpha(110);
        option->backgroundBrush = mark;
    }
}

void PlainTextDelegate::paintPanel(QPainter* painter, const QStyleOptionViewItem& cell) {
    const QStyle* style = styleOf(cell);
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &cell, painter, cell.widget);
    if (!(cell.state & QStyle::State_HasFocus))
        return;
    QStyleOptionFocusRect focus;
    focus.QStyleOption::operator=(cell);
    focus.state |= QStyle::State_KeyboardFocusChange | QStyle::State_Item;
    focus.backgroundColor = cell.palette.color(
        colorGroupOf(cell),
        cell.state & QStyle::State_Selected ? QPalette::Highlight : QPalette::Window);
    style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, cell.widget);
}

void PlainTextDelegate::paintText(QPainter* painter, const QStyleOptionViewItem& cell,
                                  const QRect& area, const QString& text, Qt::Alignment alignment,
                                  QColor color) const {
    if (text.isEmpty() || area.width() <= 0)
        return;
    if (cell.font != laidOutFont_) {
        laidOut_.clear();
        laidOutFont_ = cell.font;
    }
    const QStaticText& laidOut = laidOut_.get(Key{text, area.width(), cell.textElideMode}, [&] {
        const QFontMetrics metrics(cell.font);
        QStaticText made(keepsLastSegment_
                             ? elidedKey(metrics, text, area.width())
                             : metrics.elidedText(text, cell.textElideMode, area.width()));
        made.setTextFormat(Qt::PlainText);
        made.prepare(QTransform(), cell.font);
        return made;
    });
    const QSizeF size = laidOut.size();
    QPointF at(area.left(), area.top() + (area.height() - size.height()) / 2);
    if (alignment & Qt::AlignRight)
        at.setX(area.right() + 1 - size.width());
    else if (alignment & Qt::AlignHCenter)
        at.setX(area.left() + (area.width() - size.width()) / 2);

    if (!color.isValid())
        color = cell.palette.color(colorGroupOf(cell), cell.state & QStyle::State_Selected
                                                           ? QPalette::HighlightedText
                                                           : QPalette::Text);
    painter->save();
    painter->setFont(cell.font);
    painter->setPen(color);
    painter->setClipRect(area, Qt::IntersectClip);
    painter->drawStaticText(at, laidOut);
    painter->restore();
}

} // namespace lockscope
