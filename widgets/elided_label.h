#pragma once

#include <QLabel>

namespace lockscope {

// A one-line label that never asks for more width than a few characters: text too long for
// the width it gets is painted ending in "…", and pointing at it shows all of it (unless the
// label has a tooltip of its own). text() stays the whole text. A long error or status then
// cannot widen the window, as a QLabel does (its minimum width is its whole text).
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    // What is painted: the text on one line, elided to the label's width.
    QString shownText() const;

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QRect textArea() const;
    QString oneLine() const;
};

} // namespace lockscope
