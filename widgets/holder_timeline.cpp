#include "widgets/holder_timeline.h"

#include "widgets/clock_ticker.h"
#include "widgets/plot_export.h"
#include "widgets/series_palette.h"
#include "widgets/shared_time_axis.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace lockscope {

namespace {
constexpr double laneHalfHeight = 0.35;
constexpr double overlapHalfHeight = 0.48;
// A hold seen already in progress fades in over this many pixels from its left edge: its start
// lies further left, unknown.
constexpr double openEdgePixels = 24;
// How near (in pixels) a pointer must be to a bar for its tooltip: thin bars are hard to hit.
constexpr int hoverSlackPixels = 3;
// How near a press must be to the marker to drag it, and how far a press may move and still be
// a click (not a drag of the view).
constexpr int markerGrabPixels = 5;
constexpr int clickSlackPixels = 3;
// The marker: near black, unlike any holder's colour or the alarm's red.
const QColor markerColor(0x20, 0x20, 0x20);

// The holder's short name drawn on its bar: the key's last segment (a lease in hex).
QString shortName(const QString& key) {
    return key.section('/', -1);
}

QString clockText(double unixSeconds) {
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(unixSeconds * 1000)))
        .toString("HH:mm:ss.zzz");
}
} // namespace

// Every bar and overlap mark of the timeline, drawn in one pass over the intervals in view.
// A hold that falls within the pixels of the bar drawn before it is skipped: at thousands of
// holds a lane, only what can be seen is drawn.
class HolderTimeline::Bars : public QCPLayerable {
public:
    Bars(QCustomPlot* plot, const HolderTimeline& timeline)
        : QCPLayerable(plot, "main")
        , timeline_(timeline) {}

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override {
        applyAntialiasingHint(painter, false, QCP::aeOther);
    }
    QRect clipRect() const override { return mParentPlot->axisRect()->rect(); }

    void draw(QCPPainter* painter) override {
        const QCPRange shown = mParentPlot->xAxis->range();
        for (int lane = 0; lane < timeline_.lanes_.size(); ++lane) {
            const QString& lock = timeline_.lanes_[lane];
            // A lane's holds follow one another, so they start and end in order: begin at the
            // first to end in view, stop at the first to start after it, and a hold whose
            // right edge is within the last bar drawn lies wholly within it.
            const Intervals& holds = laneIn(timeline_.intervals_, lock);
            auto hold = std::lower_bound(
                holds.begin(), holds.end(), shown.lower,
                [](const Interval& interval, double left) { return interval.end < left; });
            double drawnTo = -1;
            for (; hold != holds.end() && hold->start <= shown.upper; ++hold) {
                const QRectF bar = rectOf(*hold, lane, laneHalfHeight);
                if (bar.right() <= drawnTo)
                    continue;
                if (hold->hold.startUnknown)
                    drawOpenEdged(painter, bar, hold->color);
                else {
                    painter->setPen(QPen(hold->color.darker(130)));
                    painter->setBrush(hold->color);
                    painter->drawRect(bar);
                }
                drawLabel(painter, bar.intersected(clipRect()), hold->color, hold->hold.key);
                drawnTo = std::floor(bar.right());
            }
            // Overlap marks are few and may nest: each one in view is drawn.
            painter->setPen(QPen(alarmColor(), 2));
            painter->setBrush(
                QColor(alarmColor().red(), alarmColor().green(), alarmColor().blue(), 110));
            for (const Interval& mark : laneIn(timeline_.overlaps_, lock))
                if (mark.end >= shown.lower && mark.start <= shown.upper)
                    painter->drawRect(rectOf(mark, lane, overlapHalfHeight));
        }
        if (timeline_.marker_ && shown.contains(*timeline_.marker_)) {
            const double x = mParentPlot->xAxis->coordToPixel(*timeline_.marker_);
            const QRect area = clipRect();
            painter->setPen(QPen(markerColor, 2));
            painter->drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        }
    }

    // No left border, and a fill that fades in from the left: the hold began out of sight.
    static void drawOpenEdged(QCPPainter* painter, const QRectF& bar, const QColor& color) {
        QLinearGradient fade(bar.left(), 0, bar.left() + std::min(openEdgePixels, bar.width()), 0);
        QColor clear = color;
        clear.setAlpha(0);
        fade.setColorAt(0, clear);
        fade.setColorAt(1, color);
        painter->setPen(Qt::NoPen);
        painter->setBrush(fade);
        painter->drawRect(bar);
        painter->setPen(QPen(color.darker(130)));
        painter->drawLine(bar.topLeft(), bar.topRight());
        painter->drawLine(bar.bottomLeft(), bar.bottomRight());
        painter->drawLine(bar.topRight(), bar.bottomRight());
    }

    // The holder's short name where the shown part of its bar is wide enough: whole, or its
    // last characters (one member's leases count up, so they differ at the end), the last
    // three bare on the narrowest.
    static void drawLabel(QCPPainter* painter, const QRectF& bar, const QColor& fill,
                          const QString& key) {
        constexpr double padding = 3;
        if (bar.width() < 8 * padding) // most bars, at high rates: skip measuring
            return;
        const QString name = shortName(key);
        const QString ellipsis(QChar(0x2026));
        for (const QString& label : {name, ellipsis + name.right(6), name.right(3)}) {
            if (painter->fontMetrics().horizontalAdvance(label) + 2 * padding > bar.width())
                continue;
            painter->setPen(fill.lightness() < 140 ? Qt::white : Qt::black);
            painter->drawText(bar.adjusted(padding, 0, -padding, 0),
                              Qt::AlignVCenter | Qt::AlignRight, label);
            return;
        }
    }

    QRectF rectOf(const Interval& interval, int lane, double halfHeight) const {
        const QCPAxis* x = mParentPlot->xAxis;
        const QCPAxis* y = mParentPlot->yAxis;
        const double left = x->coordToPixel(interval.start);
        const double right = std::max(left + 1, x->coordToPixel(interval.end));
        const double top = y->coordToPixel(lane - halfHeight);
        const double bottom = y->coordToPixel(lane + halfHeight);
        return QRectF(QPointF(left, std::min(top, bottom)), QPointF(right, std::max(top, bottom)));
    }

private:
    const HolderTimeline& timeline_;
};

HolderTimeline::HolderTimeline(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    plot_->xAxis->setTicker(QSharedPointer<ClockTicker>::create());
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->yAxis->setRangeReversed(true); // first lane at the top
    plot_->setMinimumHeight(120);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom); // used while paused
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->installEventFilter(this); // its tooltips
    new Bars(plot_, *this);          // the plot's child
    addPlotExportActions(
        this, plot_, [this](const QString& path, QString& error) { return exportTo(path, error); });
    replotTimer_.setSingleShot(true);
    replotTimer_.setInterval(ReplotIntervalMs);
    connect(&replotTimer_, &QTimer::timeout, this, &HolderTimeline::redraw);
}

int HolderTimeline::laneOf(const QString& lock) {
    if (const auto known = laneIndex_.constFind(lock); known != laneIndex_.constEnd())
        return *known;
    laneIndex_.insert(lock, static_cast<int>(lanes_.size()));
    lanes_.append(lock);
    if ((lanes_.size() - 1) % labelEvery_ == 0) {
        auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker());
        ticker->addTick(lanes_.size() - 1, lock);
    }
    plot_->yAxis->setRange(-0.5, lanes_.size() - 0.5);
    return static_cast<int>(lanes_.size() - 1);
}

void HolderTimeline::beginHold(const QString& lock, const Hold& hold, double start) {
    Intervals& holds = intervals_[lock];
    if (!holds.empty() && holds.back().open && holds.back().hold.key == hold.key)
        return;
    endHold(lock, start);
    laneOf(lock);
    holds.push_back({holderColor(hold.key), start, start, true, hold});
    if (earliest_ == 0 || start < earliest_)
        earliest_ = start;
    if (sharedAxis_)
        sharedAxis_->noteData(start);
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void HolderTimeline::endHold(const QString& lock, double end, const QString& how) {
    auto it = intervals_.find(lock);
    if (it == intervals_.end() || it->empty() || !it->back().open)
        return;
    Interval& last = it->back();
    last.open = false;
    last.end = std::max(last.start, end);
    last.endedHow = how;
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void HolderTimeline::markOverlap(const QString& lock, double from, double to) {
    laneOf(lock);
    Intervals& marks = overlaps_[lock];
    const Interval mark{alarmColor(), from, std::max(from, to), false, {}};
    // Kept in order of their ends, as pruning expects.
    marks.insert(std::upper_bound(marks.begin(), marks.end(), mark.end,
                                  [](double end, const Interval& m) { return end < m.end; }),
                 mark);
    if (earliest_ == 0 || from < earliest_)
        earliest_ = from;
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void HolderTimeline::setWindowSeconds(double seconds) {
    windowSeconds_ = seconds;
    redraw();
}

void HolderTimeline::setNow(double now) {
    followClock_ = false;
    now_ = now;
    redraw();
}

void HolderTimeline::setPaused(bool paused) {
    paused_ = paused;
    if (!paused)
        redraw();
}

void HolderTimeline::setSharedTimeAxis(SharedTimeAxis* axis) {
    sharedAxis_ = axis;
    axis->attach(plot_->xAxis, earliest_);
    redraw();
}

void HolderTimeline::setDurationFormat(DurationFormat format) {
    durationFormat_ = std::move(format);
}

void HolderTimeline::clear() {
    lanes_.clear();
    laneIndex_.clear();
    intervals_.clear();
    overlaps_.clear();
    earliest_ = 0;
    marker_.reset();
    labelEvery_ = 1;
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->yAxis->setRange(-0.5, 0.5);
    redraw();
}

void HolderTimeline::showTimes(double from, double to) {
    followClock_ = false;
    paused_ = true;
    now_ = to;
    windowSeconds_ = std::max(to - from, 0.0);
    plot_->xAxis->setRange(from, std::max(to, from + 1e-3));
    redraw();
}

void HolderTimeline::setMarker(std::optional<double> time) {
    marker_ = time;
    if (time) {
        // Kept in sight: a view it left moves so the marker is near its edge, as a page turns.
        const QCPRange shown = plot_->xAxis->range();
        const double margin = shown.size() / 10;
        if (*time > shown.upper)
            plot_->xAxis->setRange(*time + margin - shown.size(), *time + margin);
        else if (*time < shown.lower)
            plot_->xAxis->setRange(*time - margin, *time - margin + shown.size());
    }
    if (isVisibleTo(window()))
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

QPoint HolderTimeline::pointOf(const QString& lock, double time) const {
    const auto lane = static_cast<double>(laneIndex_.value(lock, -1));
    return plot_->mapTo(
        this,
        QPointF(plot_->xAxis->coordToPixel(time), plot_->yAxis->coordToPixel(lane)).toPoint());
}

QString HolderTimeline::toolTipAt(const QPoint& pos) const {
    const QPoint at = plot_->mapFrom(this, pos);
    if (!plot_->axisRect()->rect().contains(at))
        return {};
    const double laneCoord = plot_->yAxis->pixelToCoord(at.y());
    const auto lane = static_cast<qsizetype>(std::lround(laneCoord));
    if (lane < 0 || lane >= lanes_.size() || std::abs(laneCoord - lane) > overlapHalfHeight)
        return {};
    const QString& lock = lanes_[lane];
    const double from = plot_->xAxis->pixelToCoord(at.x() - hoverSlackPixels);
    const double to = plot_->xAxis->pixelToCoord(at.x() + hoverSlackPixels);
    QStringList parts;
    for (const Interval& mark : laneIn(overlaps_, lock))
        if (mark.start <= to && mark.end >= from)
            parts << tr("Two holders at once, %1 to %2")
                         .arg(clockText(mark.start), clockText(mark.end));
    const Intervals& holds = laneIn(intervals_, lock);
    const auto hold =
        std::lower_bound(holds.begin(), holds.end(), from,
                         [](const Interval& interval, double left) { return interval.end < left; });
    if (hold != holds.end() && hold->start <= to && std::abs(laneCoord - lane) <= laneHalfHeight)
        parts << describe(lock, *hold);
    return parts.join("\n\n");
}

QString HolderTimeline::describe(const QString& lock, const Interval& interval) const {
    const Hold& hold = interval.hold;
    const double end = interval.open ? std::max(interval.end, now_) : interval.end;
    const QString duration = durationFormat_ ? durationFormat_(end - interval.start)
                                             : tr("%1 s").arg(end - interval.start, 0, 'f', 3);
    QStringList lines{tr("Lock: %1").arg(lock), tr("Key: %1").arg(hold.key),
                      tr("Lease: %1").arg(hold.leaseHex),
                      tr("Fencing token: %1").arg(hold.fencingToken)};
    if (hold.startUnknown)
        lines << tr("Start: unknown, held since before LockScope started watching (first seen "
                    "%1)")
                     .arg(clockText(interval.start));
    else
        lines << tr("Start: %1").arg(clockText(interval.start));
    if (interval.open)
        lines << tr("End: still held");
    else if (interval.endedHow.isEmpty())
        lines << tr("End: %1").arg(clockText(end));
    else
        lines << tr("End: %1 (%2)").arg(clockText(end), interval.endedHow);
    lines << (hold.startUnknown ? tr("Duration: at least %1").arg(duration)
                                : tr("Duration: %1").arg(duration));
    return lines.join('\n');
}

bool HolderTimeline::handleMouse(QEvent* event) {
    auto* mouse = static_cast<QMouseEvent*>(event);
    const QPoint at = mouse->position().toPoint();
    const auto timeAtPlot = [this, &at] { return plot_->xAxis->pixelToCoord(at.x()); };
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        if (mouse->button() != Qt::LeftButton || !plot_->axisRect()->rect().contains(at))
            return false;
        pressedAt_ = at;
        if (marker_ &&
            std::abs(plot_->xAxis->coordToPixel(*marker_) - at.x()) <= markerGrabPixels) {
            // The marker is taken, not the view: the plot must not start a drag of its own.
            draggingMarker_ = true;
            plot_->setInteraction(QCP::iRangeDrag, false);
        }
        return false;
    case QEvent::MouseMove:
        if (draggingMarker_)
            emit timeChosen(timeAtPlot());
        return false;
    case QEvent::MouseButtonRelease: {
        if (mouse->button() != Qt::LeftButton)
            return false;
        const bool clicked = pressedAt_ && (at - *pressedAt_).manhattanLength() <= clickSlackPixels;
        if (draggingMarker_ || clicked)
            emit timeChosen(timeAtPlot());
        if (draggingMarker_)
            plot_->setInteraction(QCP::iRangeDrag, true);
        draggingMarker_ = false;
        pressedAt_.reset();
        return false;
    }
    default: return false;
    }
}

void HolderTimeline::labelLanes() {
    const double perLane =
        plot_->axisRect()->height() / static_cast<double>(std::max<qsizetype>(lanes_.size(), 1));
    const double lineHeight = QFontMetrics(plot_->yAxis->tickLabelFont()).height();
    // A hundred lanes in a hundred pixels named each made the names one black smear.
    const int every = std::max(1, static_cast<int>(std::ceil(lineHeight / std::max(perLane, 1.0))));
    if (every == labelEvery_)
        return;
    labelEvery_ = every;
    QMap<double, QString> names;
    for (qsizetype lane = 0; lane < lanes_.size(); lane += every)
        names.insert(static_cast<double>(lane), lanes_[lane]);
    qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker())->setTicks(names);
}

bool HolderTimeline::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize)
        labelLanes();
    if (watched == plot_ &&
        (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseMove ||
         event->type() == QEvent::MouseButtonRelease))
        return handleMouse(event);
    if (watched != plot_ || event->type() != QEvent::ToolTip)
        return QWidget::eventFilter(watched, event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(plot_->mapTo(this, help->pos()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, plot_);
    return true;
}

const HolderTimeline::Intervals& HolderTimeline::laneIn(const QHash<QString, Intervals>& lists,
                                                        const QString& lock) {
    static const Intervals none;
    const auto found = lists.constFind(lock);
    return found != lists.constEnd() ? *found : none;
}

int HolderTimeline::intervalCount() const {
    int count = 0;
    for (const auto& list : intervals_)
        count += static_cast<int>(list.size());
    return count;
}

void HolderTimeline::prune() {
    const double from = now_ - windowSeconds_;
    for (auto* lists : {&intervals_, &overlaps_})
        for (auto& list : *lists)
            while (!list.empty() && !list.front().open && list.front().end < from)
                list.pop_front();
}

void HolderTimeline::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    redraw();
}

void HolderTimeline::readClock() {
    if (followClock_)
        now_ = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
}

void HolderTimeline::redraw() {
    readClock();
    prune(); // on a tab not shown too, so memory stays bounded
    // On a tab not shown there is nothing to draw; showEvent catches up.
    if (!isVisibleTo(window()))
        return;
    showWindowToNow();
    labelLanes();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    const bool anyOpen = std::any_of(intervals_.cbegin(), intervals_.cend(),
                                     [](const auto& l) { return !l.empty() && l.back().open; });
    if (anyOpen && followClock_ && !replotTimer_.isActive())
        replotTimer_.start(); // keep the open bars growing
}

bool HolderTimeline::exportTo(const QString& path, QString& error) {
    readClock();
    showWindowToNow();
    return exportPlot(*plot_, path, error);
}

void HolderTimeline::showWindowToNow() {
    for (auto& list : intervals_)
        if (!list.empty() && list.back().open) // an open hold reaches the present
            list.back().end = std::max(list.back().start, now_);
    if (paused_)
        return;
    if (sharedAxis_) {
        const auto [lower, upper] = sharedAxis_->liveRange(now_);
        plot_->xAxis->setRange(lower, upper);
        return;
    }
    // Like LatencyPlot, the axis grows with the data up to the window, so the first seconds of
    // holds are not a sliver at the right edge; before any data it shows the whole window.
    const double span =
        earliest_ > 0 ? std::min(std::max(now_ - earliest_, 10.0), windowSeconds_) : windowSeconds_;
    plot_->xAxis->setRange(now_ - span, now_);
}

} // namespace lockscope
