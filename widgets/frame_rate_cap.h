#pragma once

#include "widgets/frame_pacer.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <chrono>

class QAbstractScrollArea;
class QPaintEvent;
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

    // Paints the viewport of `view`, a scroll area that changes with most frames (a busy
    // table), apart from them: a frame that finds it changed leaves its pixels as they were,
    // and it is painted whole in an event-loop turn of its own right after, each such viewport
    // in its own, once per frame. A frame of a busy window was one 2.5 ms turn (and two or three
    // times that when etcd took the core meanwhile), which every event arriving during it
    // waited for. Its first paint after being shown, resized or scrolled is never left (a
    // scroll moves its pixels, which must be the current ones). The viewport becomes opaque
    // (WA_OpaquePaintEvent): the cap fills its background.
    void paintApart(QAbstractScrollArea* view);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Paints what changed in the window: a frame, or `turn`'s own turn.
    void paintPass(QWidget* turn = nullptr);
    // A paint of a widget painted apart: false lets it through, true leaves it for its turn.
    bool leavesPaint(QWidget* widget, QPaintEvent* event);
    void postTurn(); // one at a time
    void paintNextApart();

    QWidget* window_;
    FramePacer pacer_;
    bool releasing_ = false; // a pass's UpdateRequest is on its way through
    bool inPass_ = false;
    QWidget* turn_ = nullptr;
    QSet<QWidget*> apart_;
    QSet<QWidget*> painted_; // painted since shown, resized or scrolled: their pixels may wait
    // This round (a frame and the turns after it): left and due their turn, had their turn, and
    // left after it (they wait for the next frame).
    QList<QPointer<QWidget>> due_;
    QSet<QWidget*> turned_;
    QList<QPointer<QWidget>> later_;
    bool turnPosted_ = false;
};

} // namespace lockscope
