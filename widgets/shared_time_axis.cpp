#include "widgets/shared_time_axis.h"

#include <algorithm>
#include <qcustomplot.h>

namespace lockscope {

SharedTimeAxis::SharedTimeAxis(QObject* parent)
    : QObject(parent) {}

void SharedTimeAxis::attach(QCPAxis* axis, double earliestData) {
    axes_.append(axis);
    if (earliestData > 0)
        noteData(earliestData);
    connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this, axis] { spreadFrom(axis); });
    connect(axis->parentPlot(), &QCustomPlot::afterLayout, this, &SharedTimeAxis::alignLeftEdges);
    if (axes_.size() > 1 && axes_.first())
        axis->setRange(axes_.first()->range());
}

void SharedTimeAxis::setWindowSeconds(double seconds) {
    windowSeconds_ = seconds;
}

void SharedTimeAxis::noteData(double time) {
    earliest_ = earliest_ > 0 ? std::min(earliest_, time) : time;
}

std::pair<double, double> SharedTimeAxis::liveRange(double now) const {
    const double span =
        earliest_ > 0 ? std::min(std::max(now - earliest_, 10.0), windowSeconds_) : windowSeconds_;
    return {now - span, now};
}

void SharedTimeAxis::alignLeftEdges() {
    // Each plot's left margin fits its own value labels; the widest sets them all. Margins
    // only grow, so this settles after one more layout.
    int widest = 0;
    for (const QPointer<QCPAxis>& axis : std::as_const(axes_))
        if (axis)
            widest = std::max(widest, axis->axisRect()->margins().left());
    for (const QPointer<QCPAxis>& axis : std::as_const(axes_)) {
        if (!axis || axis->axisRect()->minimumMargins().left() >= widest)
            continue;
        QMargins least = axis->axisRect()->minimumMargins();
        least.setLeft(widest);
        axis->axisRect()->setMinimumMargins(least);
        axis->parentPlot()->replot(QCustomPlot::rpQueuedReplot);
    }
}

void SharedTimeAxis::spreadFrom(QCPAxis* leader) {
    if (spreading_) // the followers' own rangeChanged while we set them
        return;
    spreading_ = true;
    for (const QPointer<QCPAxis>& axis : std::as_const(axes_))
        if (axis && axis != leader && axis->range() != leader->range()) {
            axis->setRange(leader->range());
            axis->parentPlot()->replot(QCustomPlot::rpQueuedReplot);
        }
    spreading_ = false;
}

} // namespace lockscope
