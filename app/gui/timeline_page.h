#pragma once

#include "etcdclient/lock_monitor.h"

#include <QHash>
#include <QTimer>
#include <QWidget>

namespace lockscope {

class HolderTimeline;
class LatencyPlot;

// The Timeline tab: who held each lock when (a lane per lock), wait and handoff times of
// observed locks and of our own, and the queue depth over time. Fed on the GUI thread with
// LockWatch's events and state; pause, zoom and PNG export on the graphs.
class LockCharts : public QWidget {
    Q_OBJECT
public:
    static constexpr int DepthSampleMs = 1000;

    explicit LockCharts(QWidget* parent = nullptr);

    void addEvents(const std::vector<etcd::LockEvent>& events);
    void sampleQueueDepth(const etcd::LockMonitorState& state);
    // A lock this window acquired: its wait, as our own series.
    void addOwnWait(double unixSeconds, double waitedMs);
    void markOverlap(const QString& lock, double from, double to);

    HolderTimeline* timeline() const { return timeline_; }
    LatencyPlot* waits() const { return waits_; }
    LatencyPlot* depth() const { return depth_; }

private:
    void exportPng();

    HolderTimeline* timeline_;
    LatencyPlot* waits_;
    LatencyPlot* depth_;
    QHash<QString, double> holderGoneAt_; // lock -> when its last holder went (unix seconds)
};

} // namespace lockscope
