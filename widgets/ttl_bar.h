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

    // The red tones: little of the TTL is left.
    void setLow(bool low);
    bool isLow() const { return low_; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    bool low_ = false;
};

} // namespace lockscope
