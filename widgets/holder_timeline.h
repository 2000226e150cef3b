#pragma once

#include <QHash>
#include <QList>
#include <QTimer>
#include <QWidget>
#include <deque>
#include <functional>
#include <optional>

class QCustomPlot;

namespace lockscope {

class SharedTimeAxis;

// One lane per lock and a bar per holding interval, coloured by holder, so contention reads at
// a glance: gaps are idle time, many short bars a busy lock. A bar wide enough names its holder
// (the key's last segment); hovering one tells its key, lease, fencing token, start, end and
// duration. A hold already in progress when LockScope first looked starts where it was first
// seen, with an open (faded) left edge. Keeps the last `window` seconds;
// an open interval grows with the clock until it ends; redraws at most ~10 times a second, and
// not at all on a tab not shown: it catches up when shown. The bars are plain data drawn in one
// pass: a QCustomPlot item per hold cost more to create and remove than the hold took to show,
// at thousands of holds a second.
class HolderTimeline : public QWidget {
    Q_OBJECT
public:
    static constexpr int ReplotIntervalMs = 100;

    struct Hold {
        QString key; // the holder's
        QString leaseHex{};
        qint64 fencingToken = 0; // the key's create revision
        // Held before LockScope first saw it: `start` is when it was first seen.
        bool startUnknown = false;
    };
    // How a duration in seconds reads in a tooltip.
    using DurationFormat = std::function<QString(double seconds)>;

    explicit HolderTimeline(QWidget* parent = nullptr);

    // Times are seconds since the Unix epoch. A new hold on a lane ends the open one there; the
    // same key again while its hold is open changes nothing. `how`: what ended it, as its
    // tooltip says ("expired"); empty when unknown.
    void beginHold(const QString& lock, const Hold& hold, double start);
    void endHold(const QString& lock, double end, const QString& how = {});
    // Two holders at once on that lane (a split brain): drawn in red across the lane.
    void markOverlap(const QString& lock, double from, double to);
    void setWindowSeconds(double seconds);
    void setNow(double now); // the right edge; follows the wall clock unless set
    // Paused, the view stops following the clock and can be dragged and zoomed.
    void setPaused(bool paused);
    // Its time axis moves with the others of `axis` (which must outlive the timeline), and
    // while live shows what `axis` says.
    void setSharedTimeAxis(SharedTimeAxis* axis);
    void setDurationFormat(DurationFormat format);
    // Every lane and hold goes (another recording, or another part of one).
    void clear();
    // Shows [from, to] (seconds since the Unix epoch) and stops there, as if paused: open holds
    // reach `to`; drag and zoom from there. For a recording, whose present is its end.
    void showTimes(double from, double to);
    // A line across the lanes at `time` (none: no line): the moment a replay shows. The view
    // moves along to keep it in sight. A click on the lanes, or the line pressed and dragged,
    // says timeChosen; the owner then sets the line where that time leads.
    void setMarker(std::optional<double> time);
    std::optional<double> marker() const { return marker_; }

    // The tooltip for a point of the widget: the hold under it, or empty.
    QString toolTipAt(const QPoint& pos) const;
    // Where the hold of `lock` at `time` is drawn (for tests); the centre of its bar.
    QPoint pointOf(const QString& lock, double time) const;

    // Writes the timeline to `path`, PDF or PNG (see exportPlot()), also from a tab never
    // shown; also offered on its context menu. False with `error` saying why.
    bool exportTo(const QString& path, QString& error);

    QStringList lanes() const { return lanes_; }
    int intervalCount() const;

signals:
    // The user clicked the lanes at `time`, or dragged the marker there.
    void timeChosen(double time);

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    class Bars;
    struct Interval {
        QColor color;
        double start, end;
        bool open;
        Hold hold;          // empty for an overlap mark
        QString endedHow{}; // endHold's `how`
    };
    // A lane is a queue: new holds at the back, those out of the window off the front. A
    // QList reused so grows its buffer whenever the count touches two thirds of it, keeping the
    // room freed at the front: at a steady rate it settled at 2.6 times the window's holds, after
    // the window was full. A deque holds what is in the window.
    using Intervals = std::deque<Interval>;
    // The intervals of `lock` in `lists` (empty when it has none), not copied.
    static const Intervals& laneIn(const QHash<QString, Intervals>& lists, const QString& lock);
    QString describe(const QString& lock, const Interval& interval) const;
    int laneOf(const QString& lock);
    void prune();
    void redraw();
    void readClock(); // now_ from the wall clock, unless set
    // Open holds reach now_, and the axis shows the window up to it.
    void showWindowToNow();
    // Mouse presses, moves and releases on the plot: a click, or the marker dragged.
    bool handleMouse(QEvent* event);
    // Names every lane, or every n-th when more lanes than lines of text fit the height.
    void labelLanes();

    QCustomPlot* plot_;
    QStringList lanes_;
    QHash<QString, int> laneIndex_; // lanes_ by lock: 10,000 locks made a linear search quadratic
    QHash<QString, Intervals> intervals_; // per lane, oldest first
    QHash<QString, Intervals> overlaps_;  // per lane, oldest first
    QTimer replotTimer_;
    double windowSeconds_ = 120;
    double now_ = 0;
    double earliest_ = 0; // the first hold or overlap drawn (unix seconds); 0 before any
    bool followClock_ = true;
    bool paused_ = false;
    SharedTimeAxis* sharedAxis_ = nullptr;
    DurationFormat durationFormat_;
    std::optional<double> marker_;
    std::optional<QPoint> pressedAt_; // a press not yet known to be a click or a drag
    bool draggingMarker_ = false;
    int labelEvery_ = 1; // lanes named: every labelEvery_-th
};

} // namespace lockscope
