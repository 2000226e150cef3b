#pragma once

#include <QProgressBar>

namespace lockscope {

// A TTL as the lock list shows it (TtlCountdownDelegate's bar and tones) with the bar's text on
// it, for HolderCard. Still a QProgressBar, for its range, value and text (and what assistive
// tools read), but painted here: a style sheet per tone re-polishes the bar on each change of
// tone, and a re-polished widget lays out every parent up to the window, which then repaints
// whole.
class TtlBar : public QProgressBar {
    Q_OBJECT
public:
    explicit TtlBar(QWidget* parent = nullptr);

    // `value` of `maximum` left, with `text` on the bar, in the orange tones when `low`. Painted
    // with the window's next frame: QProgressBar's own setters paint at once.
    void setTtl(int value, int maximum, const QString& text, bool low);
    bool isLow() const { return low_; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    bool low_ = false;
};

} // namespace lockscope
