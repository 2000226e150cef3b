#pragma once

#include <QLabel>

namespace lockscope {

// A one-line label that never asks for more width than a few characters: text too long for
// the width it gets ends in "…", and the whole text is its tooltip. A long error or status
// then cannot widen the window (a QLabel's minimum width is its whole text).
class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    const QString& fullText() const { return fullText_; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString fullText_;
};

} // namespace lockscope
