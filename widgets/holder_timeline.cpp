#include "widgets/holder_timeline.h"

#include <QDateTime>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace lockscope {

namespace {
constexpr double laneHalfHeight = 0.35;
}

HolderTimeline::HolderTimeline(QWidget* parent)
    : QWidget(parent)
    , plot_(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeFormat("hh:mm:ss");
    plot_->xAxis->setTicker(ticker);
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->yAxis->setRangeReversed(true); // first lane at the top
    plot_->setMinimumHeight(120);
    replotTimer_.setSingleShot(true);
    replotTimer_.setInterval(ReplotIntervalMs);
    connect(&replotTimer_, &QTimer::timeout, this, &HolderTimeline::redraw);
}

QColor HolderTimeline::colorOf(const QString& holder) {
    // Similar keys hash to nearby values: spread them around the hue circle (Knuth's
    // multiplicative hash) so neighbouring holders get clearly different colours.
    const auto spread = static_cast<quint32>(qHash(holder)) * 2654435761u;
    return QColor::fromHsv(static_cast<int>(spread % 360), 150, 215);
}

int HolderTimeline::laneOf(const QString& lock) {
    int lane = static_cast<int>(lanes_.indexOf(lock));
    if (lane >= 0)
        return lane;
    lanes_.append(lock);
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker());
    ticker->addTick(lanes_.size() - 1, lock);
    plot_->yAxis->setRange(-0.5, lanes_.size() - 0.5);
    return static_cast<int>(lanes_.size() - 1);
}

void HolderTimeline::beginHold(const QString& lock, const QString& holder, double start) {
    endHold(lock, start);
    const int lane = laneOf(lock);
    auto* bar = new QCPItemRect(plot_);
    const QColor color = colorOf(holder);
    bar->setBrush(color);
    bar->setPen(QPen(color.darker(130)));
    bar->topLeft->setCoords(start, lane - laneHalfHeight);
    bar->bottomRight->setCoords(start, lane + laneHalfHeight);
    intervals_[lock].append({holder, start, start, true, bar});
    if (earliest_ == 0 || start < earliest_)
        earliest_ = start;
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void HolderTimeline::endHold(const QString& lock, double end) {
    auto it = intervals_.find(lock);
    if (it == intervals_.end() || it->isEmpty() || !it->last().open)
        return;
    Interval& last = it->last();
    last.open = false;
    last.end = std::max(last.start, end);
    last.bar->bottomRight->setCoords(last.end, laneOf(lock) + laneHalfHeight);
    if (!replotTimer_.isActive())
        replotTimer_.start();
}

void HolderTimeline::markOverlap(const QString& lock, double from, double to) {
    const int lane = laneOf(lock);
    auto* mark = new QCPItemRect(plot_);
    mark->setBrush(QColor(220, 20, 60, 110));
    mark->setPen(QPen(QColor(220, 20, 60), 2));
    mark->topLeft->setCoords(from, lane - 0.48);
    mark->bottomRight->setCoords(std::max(from, to), lane + 0.48);
    overlaps_.append({lock, from, std::max(from, to), false, mark});
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

int HolderTimeline::intervalCount() const {
    int count = 0;
    for (const auto& list : intervals_)
        count += static_cast<int>(list.size());
    return count;
}

void HolderTimeline::prune() {
    const double from = now_ - windowSeconds_;
    while (!overlaps_.isEmpty() && overlaps_.first().end < from) {
        plot_->removeItem(overlaps_.first().bar);
        overlaps_.removeFirst();
    }
    for (auto& list : intervals_) {
        while (!list.isEmpty() && !list.first().open && list.first().end < from) {
            plot_->removeItem(list.first().bar);
            list.removeFirst();
        }
    }
}

void HolderTimeline::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    redraw();
}

void HolderTimeline::redraw() {
    if (followClock_)
        now_ = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    prune(); // on a tab not shown too, so memory stays bounded
    // On a tab not shown there is nothing to draw; showEvent catches up.
    if (!isVisibleTo(window()))
        return;
    for (auto it = intervals_.begin(); it != intervals_.end(); ++it) {
        if (!it->isEmpty() && it->last().open) // an open hold reaches the present
            it->last().bar->bottomRight->setCoords(now_, lanes_.indexOf(it.key()) + laneHalfHeight);
    }
    // Like LatencyPlot, the axis grows with the data up to the window, so the first seconds of
    // holds are not a sliver at the right edge; before any data it shows the whole window.
    const double span =
        earliest_ > 0 ? std::min(std::max(now_ - earliest_, 10.0), windowSeconds_) : windowSeconds_;
    plot_->xAxis->setRange(now_ - span, now_);
    plot_->replot(QCustomPlot::rpQueuedReplot);
    const bool anyOpen = std::any_of(intervals_.cbegin(), intervals_.cend(),
                                     [](const auto& l) { return !l.isEmpty() && l.last().open; });
    if (anyOpen && followClock_ && !replotTimer_.isActive())
        replotTimer_.start(); // keep the open bars growing
}

} // namespace lockscope
