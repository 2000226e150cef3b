#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <utility>

class QCPAxis;

namespace lockscope {

// One time axis for the plots of a page, so an instant sits at the same x in each. Live, each
// plot shows the last `window` seconds up to now (the span grows with the data up to the
// window, so the first seconds are not a sliver at the right edge); whatever moves one axis (a
// live redraw, or a drag or zoom while paused) moves the others, which replot. Their plotted
// areas are aligned on the left, so the same instant is at the same x (the plots must be as
// wide as each other, as in one column).
class SharedTimeAxis : public QObject {
    Q_OBJECT
public:
    explicit SharedTimeAxis(QObject* parent = nullptr);

    // From now on the axis takes every range the others get, and gives its own to them.
    // `earliestData`: of the data its plot has already (0 for none), as noteData().
    void attach(QCPAxis* axis, double earliestData);
    void setWindowSeconds(double seconds);
    double windowSeconds() const { return windowSeconds_; }
    // Data at `time` (seconds since the Unix epoch) was added: the live span reaches back to it.
    void noteData(double time);
    // The live view up to `now`: [lower, upper] in seconds since the Unix epoch.
    std::pair<double, double> liveRange(double now) const;

private:
    void spreadFrom(QCPAxis* leader);
    // The plotted areas start at one x, so an instant is at the same place in each.
    void alignLeftEdges();

    QList<QPointer<QCPAxis>> axes_;
    double windowSeconds_ = 300;
    double earliest_ = 0; // of any data noted, 0 before the first
    bool spreading_ = false;
};

} // namespace lockscope
