#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <chrono>
#include <functional>

namespace lockscope {

// Lets a piece of GUI work happen at most once per interval: at once after a quiet interval,
// otherwise once at the interval's end however often it was asked for meanwhile. Shared by the
// window's repaints (FrameRateCap) and what the Locks page shows after the models changed.
class FramePacer : public QObject {
    Q_OBJECT
public:
    // `heldBack` does the work at the end of an interval in which it was held back.
    FramePacer(std::chrono::milliseconds interval, std::function<void()> heldBack,
               QObject* parent = nullptr);

    // True: do it now (counted as done now). False: held back; `heldBack` runs later.
    bool ask();
    // It was done now without asking (a repaint the pacer did not hold, a user's click).
    void noteDone() { sinceDone_.start(); }

private:
    const std::chrono::milliseconds interval_;
    const std::function<void()> heldBack_;
    QElapsedTimer sinceDone_; // invalid: the next ask goes through
    QTimer timer_;
};

} // namespace lockscope
