#include "app/gui/timeline_page.h"

#include "app/core/event_words.h"
#include "app/core/hold_spans.h"
#include "app/core/key_text.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/gui/timeline_hold.h"
#include "etcdclient/clock.h"
#include "widgets/holder_timeline.h"
#include "widgets/latency_plot.h"
#include "widgets/shared_time_axis.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace lockscope {

TimelinePage::TimelinePage(QWidget* parent)
    : QWidget(parent)
    , timeAxis_(new SharedTimeAxis(this))
    , timeline_(new HolderTimeline)
    , waits_(new LatencyPlot)
    , depth_(new LatencyPlot) {
    timeline_->setObjectName("holderTimeline");
    waits_->setObjectName("waitPlot");
    depth_->setObjectName("queueDepthPlot");
    waits_->setDurationLabel(tr("wait or gap"));
    depth_->setValueLabel(tr("waiters"));
    waits_->setEmptyText(tr("No lock acquired since the watch began"));
    depth_->setEmptyText(tr("Not sampled yet"));
    // One colour per series across the page, none the red of the overlap marks.
    waits_->setSeriesColor(tr("wait (observed)"), QColor(0x1f, 0x77, 0xb4));
    waits_->setSeriesColor(tr("wait (ours)"), QColor(0x2c, 0xa0, 0x2c));
    waits_->setSeriesColor(tr("handoff gap"), QColor(0xff, 0x7f, 0x0e));
    depth_->setSeriesColor(tr("waiters, all locks"), QColor(0x94, 0x67, 0xbd));
    timeAxis_->setWindowSeconds(WindowSeconds);
    timeline_->setWindowSeconds(WindowSeconds);
    timeline_->setDurationFormat(holdDurationText);
    timeline_->setSharedTimeAxis(timeAxis_);
    for (LatencyPlot* plot : {waits_, depth_}) {
        plot->setWindowSeconds(WindowSeconds);
        plot->setSharedTimeAxis(timeAxis_);
    }

    auto* pause = new QCheckBox(tr("Pause graphs (then drag and zoom)"));
    pause->setObjectName("pauseGraphs");
    connect(pause, &QCheckBox::toggled, this, [this](bool paused) {
        timeline_->setPaused(paused);
        waits_->setPaused(paused);
        depth_->setPaused(paused);
    });
    // The graphs' own export actions (also on each graph's context menu), in one place.
    auto* exportMenu = new QMenu(this);
    const std::pair<QWidget*, QString> plots[] = {{timeline_, tr("Holders over time")},
                                                  {waits_, tr("Wait and handoff times")},
                                                  {depth_, tr("Queue depth")}};
    for (const auto& [plot, title] : plots) {
        plot->setWindowTitle(title); // the name its exports are offered
        exportMenu->addSection(title);
        exportMenu->addActions(plot->actions());
    }
    auto* exportButton = new QPushButton(tr("Export…"));
    exportButton->setObjectName("timelineExportButton");
    exportButton->setToolTip(tr("Export a graph as PNG or PDF (also on each graph's right-click "
                                "menu)"));
    exportButton->setMenu(exportMenu);
    auto* legend = new QLabel(tr("Holders over time: a lane per lock, a bar per hold (hover for "
                                 "details), red where two believed they held it; a faded left "
                                 "edge: held since before LockScope started watching"));
    legend->setWordWrap(true); // on one line it would make the window wider than a small screen
    auto* bar = new QHBoxLayout;
    bar->addWidget(legend, 1);
    bar->addWidget(pause);
    bar->addWidget(exportButton);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(timeline_);
    splitter->addWidget(waits_);
    splitter->addWidget(depth_);
    splitter->setSizes({260, 220, 160});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    depthTimer_.setInterval(DepthSampleMs);
    connect(&depthTimer_, &QTimer::timeout, this, [this] {
        if (workspace_ && !workspace_->isFinished())
            sampleQueueDepth(workspace_->lockWatch()->state());
    });
    depthTimer_.start();
}

void TimelinePage::setWorkspace(Workspace* workspace) {
    if (workspace_)
        workspace_->lockWatch()->disconnect(this);
    workspace_ = workspace;
    if (!workspace)
        return;
    LockWatch* watch = workspace->lockWatch();
    connect(watch, &LockWatch::eventsArrived, this, &TimelinePage::addEvents);
    // Loaded (or loaded again after a restart of the watch): the holds it found.
    connect(watch, &LockWatch::livenessChanged, this, [this, watch](bool live) {
        if (live)
            addHoldsInProgress(watch->state());
    });
    if (watch->live())
        addHoldsInProgress(watch->state());
}

void TimelinePage::addHoldsInProgress(const etcd::LockMonitorState& state) {
    int added = 0;
    for (auto lock = state.locks.begin(); lock != state.locks.end() && added < MaxHoldsInProgress;
         ++lock) {
        const etcd::LockKey* holder = lock->second->holder();
        if (!holder || !holder->acquiredBeforeSeen || !holder->acquiredAt)
            continue;
        timeline_->beginHold(displayKeyText(lock->first),
                             timelineHold(holder->key, holder->lease, holder->createRevision, true),
                             etcd::unixSeconds(*holder->acquiredAt));
        ++added;
    }
}

void TimelinePage::addEvents(const std::vector<etcd::LockEvent>& events) {
    for (const auto& e : events) {
        const QString lock = displayKeyText(e.lock);
        const double at = etcd::unixSeconds(e.observedAt);
        switch (holdChangeOf(e)) {
        case HoldChange::Begins:
            // A hold recovered after a gap began during it: when, nobody saw.
            timeline_->beginHold(lock, timelineHold(e.key, e.lease, e.createRevision, e.recovered),
                                 at);
            if (e.waited && !e.recovered)
                waits_->addPoint(tr("wait (observed)"), at, static_cast<double>(e.waited->count()));
            if (auto gone = holderGoneAt_.find(lock); gone != holderGoneAt_.end()) {
                if (!e.recovered)
                    waits_->addPoint(tr("handoff gap"), at, (at - gone.value()) * 1000.0);
                holderGoneAt_.erase(gone);
            }
            break;
        case HoldChange::Ends:
            timeline_->endHold(lock, at, eventWord(e.recipe, eventCause(e.kind)));
            holderGoneAt_.insert(lock, at);
            break;
        case HoldChange::None: break;
        }
    }
}

void TimelinePage::sampleQueueDepth(const etcd::LockMonitorState& state) {
    const double now = static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0;
    depth_->addPoint(tr("waiters, all locks"), now, static_cast<double>(state.waiting));
}

void TimelinePage::addOwnWait(double unixSeconds, double waitedMs) {
    waits_->addPoint(tr("wait (ours)"), unixSeconds, waitedMs);
}

void TimelinePage::markOverlap(const QString& lock, double from, double to) {
    timeline_->markOverlap(lock, from, to);
}

} // namespace lockscope
