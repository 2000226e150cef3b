#include "widgets/elided_label.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QStyle>
#include <QToolTip>
#include <cmath>

namespace lockscope {

namespace {
constexpr int MinimumCharacters = 8;
constexpr int PreferredCharacters = 60; // asked for, never insisted on
} // namespace

ElidedLabel::ElidedLabel(QWidget* parent)
    : QLabel(parent) {
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

QString ElidedLabel::oneLine() const {
    return QString(text()).replace('\n', ' '); // a newline in an error would grow the height
}

QRect ElidedLabel::textArea() const {
    return contentsRect().adjusted(margin(), margin(), -margin(), -margin());
}

QString ElidedLabel::shownText() const {
    return fontMetrics().elidedText(oneLine(), Qt::ElideRight, std::max(0, textArea().width()));
}

QSize ElidedLabel::minimumSizeHint() const {
    const QMargins m = contentsMargins();
    return {fontMetrics().averageCharWidth() * MinimumCharacters + m.left() + m.right() +
                2 * margin(),
            fontMetrics().height() + m.top() + m.bottom() + 2 * margin()};
}

QSize ElidedLabel::sizeHint() const {
    // Measured in fractions and rounded up: the whole pixels of horizontalAdvance() fell short
    // of the drawn width of CJK text (the window's status line read "使用 127.0.0.1:237…").
    const int whole =
        static_cast<int>(std::ceil(QFontMetricsF(font()).horizontalAdvance(oneLine())));
    const int wanted = std::min(whole + 1, fontMetrics().averageCharWidth() * PreferredCharacters);
    const QSize least = minimumSizeHint();
    return {std::max(least.width(),
                     wanted + least.width() - fontMetrics().averageCharWidth() * MinimumCharacters),
            least.height()};
}

bool ElidedLabel::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && toolTip().isEmpty()) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (shownText() != oneLine())
            QToolTip::showText(help->globalPos(), text(), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QLabel::event(event);
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    drawFrame(&painter); // and, under a style sheet, the background
    style()->drawItemText(&painter, textArea(),
                          QStyle::visualAlignment(layoutDirection(), alignment()), palette(),
                          isEnabled(), shownText(), foregroundRole());
}

} // namespace lockscope
