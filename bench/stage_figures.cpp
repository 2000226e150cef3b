#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/gui/main_window.h"
#include "app/gui/stage_page.h"
#include "app/lab/contention_lab.h"
#include "figures.h"
#include "lab_window.h"
#include "run_events.h"
#include "scratch_settings.h"
#include "stall_probe.h"
#include "widgets/stage_view.h"

#include <QCoreApplication>
#include <QEvent>
#include <QTabWidget>
#include <ctime>

namespace lockscope::bench {

namespace {

constexpr int labWorkers = 200;
constexpr int labLocks = 10;

// The GUI thread's own CPU time: on a loaded machine, what a paint costs, without the time the
// thread waited to be scheduled.
std::chrono::nanoseconds threadCpuTime() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

// Times each paint of a widget: the paint event is handed on from inside the filter, so the
// time is the widget's own paintEvent, frame by frame, as the window paints it.
class PaintTimer : public QObject {
public:
    explicit PaintTimer(QWidget* widget)
        : widget_(widget) {
        widget->installEventFilter(this);
    }
    ~PaintTimer() override { widget_->removeEventFilter(this); }
    Samples samples{"gui: stage frame, lab of 200 workers on 10 locks", {}};
    Samples cpu{"gui: stage frame CPU, lab of 200 workers on 10 locks", {}};

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != widget_ || event->type() != QEvent::Paint || inside_)
            return false;
        inside_ = true;
        const auto began = std::chrono::steady_clock::now();
        const auto cpuBegan = threadCpuTime();
        QCoreApplication::sendEvent(widget_, event);
        samples.add(std::chrono::steady_clock::now() - began);
        cpu.add(threadCpuTime() - cpuBegan);
        inside_ = false;
        return true;
    }

private:
    QWidget* widget_;
    bool inside_ = false;
};

} // namespace

StageFigure measureStage(const etcd::ClientOptions& options, const Scale& scale) {
    const ScratchSettings settings;
    const std::string prefix = "/bench/stage/";
    MainWindow window;
    auto* page = window.findChild<StagePage*>("stagePage");
    window.findChild<QTabWidget*>("mainTabs")->setCurrentWidget(page);
    showLive(window, options, prefix);
    const LockWatch* watch = window.lockWatch();

    window.workspace()->startLab(labOn(prefix, labWorkers, labLocks), false);
    // The queues form before the figure counts.
    runEventsUntil([watch] { return watch->state().locks.size() >= labLocks; },
                   std::chrono::seconds(10));
    runEventsFor(std::chrono::seconds(1));

    StageFigure figure;
    const int64_t acquiredBefore = window.workspace()->lab()->counters().acquisitions;
    {
        PaintTimer frames(page->view());
        const StallProbe probe;
        runEventsFor(scale.eventRun);
        figure.frames = frames.samples;
        figure.frameCpu = frames.cpu;
        figure.longestStallMs = milliseconds(probe.longest());
    }
    figure.acquisitionsPerSecond =
        static_cast<double>(window.workspace()->lab()->counters().acquisitions - acquiredBefore) /
        std::chrono::duration<double>(scale.eventRun).count();
    figure.lanes = static_cast<int>(page->view()->lanes().size());
    window.workspace()->stopLab();
    return figure;
}

} // namespace lockscope::bench
