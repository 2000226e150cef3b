#pragma once

#include "widgets/frame_pacer.h"

#include <QObject>
#include <chrono>

class QWidget;

namespace lockscope {

// Paints a window at most once per interval. Qt repaints a window as soon as its event loop is
// free after any change, so models updated on every batch of etcd events repaint every visible
// table once per batch: at thousands of events a second, painting took most of the GUI thread
// and held each next batch back. Capped, the changes of one interval join into one repaint, and
// a change after a quiet spell still paints at once. A repaint() inside the interval waits for
// its end too; exposing or resizing the window paints at once, outside the cap. Installed on
// the window it caps; goes with it.
class FrameRateCap : public QObject {
    Q_OBJECT
public:
    FrameRateCap(QWidget* window, std::chrono::milliseconds interval);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void paintHeldBack();

    QWidget* window_;
    FramePacer pacer_;
    bool releasing_ = false; // the held-back repaint is on its way through
};

} // namespace lockscope
