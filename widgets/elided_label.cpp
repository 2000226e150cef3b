#include "widgets/elided_label.h"

#include <QResizeEvent>

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

void ElidedLabel::setFullText(const QString& text) {
    // One line: a newline in an error would otherwise grow the label's height.
    const QString line = QString(text).replace('\n', ' ');
    if (line == fullText_)
        return;
    fullText_ = line;
    setToolTip(text);
    elide();
}

QSize ElidedLabel::minimumSizeHint() const {
    const QMargins m = contentsMargins();
    return {fontMetrics().averageCharWidth() * MinimumCharacters + m.left() + m.right() +
                2 * margin(),
            QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const {
    const QMargins m = contentsMargins();
    const int wanted = std::min(fontMetrics().horizontalAdvance(fullText_),
                                fontMetrics().averageCharWidth() * PreferredCharacters);
    return {std::max(wanted + m.left() + m.right() + 2 * margin(), minimumSizeHint().width()),
            QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    elide();
}

void ElidedLabel::elide() {
    const int width = contentsRect().width() - 2 * margin();
    setText(fontMetrics().elidedText(fullText_, Qt::ElideRight, std::max(0, width)));
}

} // namespace lockscope
