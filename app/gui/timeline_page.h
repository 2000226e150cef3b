#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QHash>
#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace lockscope {

class HolderTimeline;
class LatencyPlot;
class SharedTimeAxis;
class Workspace;

// The Timeline tab: who held each lock when (a lane per lock), wait and handoff times of
// observed locks and of our own, and the queue depth over time. Fed on the GUI thread with the
// Workspace's LockWatch events and state; holds already in progress when the watch began get a
// lane from when they were first seen. The graphs share one time axis: pause, then drag or zoom
// any of them and the others follow; PNG or PDF export of each graph. What was drawn stays when
// the Workspace changes.
class TimelinePage : public QWidget {
    Q_OBJECT
public:
    static constexpr int DepthSampleMs = 1000;
    static constexpr double WindowSeconds = 300;
    // The holds found when the watch begins, in lanes: the first locks by name, so a prefix of
    // a million locks is not a million lanes (the rest get theirs when they change hands).
    static constexpr int MaxHoldsInProgress = 1000;

    explicit TimelinePage(QWidget* parent = nullptr);

    // Takes the events and queue depths of this Workspace's LockWatch (null: none).
    void setWorkspace(Workspace* workspace);

    void addEvents(const std::vector<etcd::LockEvent>& events);
    // The holds of `state` that began before the watch looked, each from when it was first seen
    // (at most MaxHoldsInProgress).
    void addHoldsInProgress(const etcd::LockMonitorState& state);
    void sampleQueueDepth(const etcd::LockMonitorState& state);
    // A lock this window acquired: its wait, as our own series.
    void addOwnWait(double unixSeconds, double waitedMs);
    void markOverlap(const QString& lock, double from, double to);

    HolderTimeline* timeline() const { return timeline_; }
    LatencyPlot* waits() const { return waits_; }
    LatencyPlot* depth() const { return depth_; }

private:
    SharedTimeAxis* timeAxis_;
    HolderTimeline* timeline_;
    LatencyPlot* waits_;
    LatencyPlot* depth_;
    QPointer<Workspace> workspace_;
    QTimer depthTimer_;
    QHash<QString, double> holderGoneAt_; // lock -> when its last holder went (unix seconds)
};

} // namespace lockscope
