#include "app/core/lock_list_model.h"
#include "app/core/lock_watch.h"
#include "app/gui/main_window.h"
#include "etcdclient/key_range.h"
#include "figures.h"
#include "idle_thread_stall.h"
#include "lock_event_writer.h"
#include "lock_key_fill.h"
#include "resident_memory.h"
#include "run_events.h"
#include "scratch_settings.h"
#include "session_leases.h"
#include "stall_probe.h"
#include "window_load.h"

#include <QPaintEvent>
#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace lockscope::bench {

namespace {

using Clock = std::chrono::steady_clock;

// The rates the issue asks for.
constexpr int eventRates[] = {1000, 5000};
// The churn on a window watching many locks, and how many of them it touches.
constexpr int churnRate = 1000;
constexpr int churnedLocks = 1000;
// Past this, an event the window has not shown counts as never shown.
constexpr std::chrono::seconds settleTimeout{10};

// When each revision under a prefix first reached a watch of its own, over a client of its own:
// etcd's floor for the window, under the same load. And when that watch's answer, handed on at
// once, reached the GUI thread: the floor for any model there, which waits for the thread as
// ours does (behind a frame being painted, or for a core).
class BareWatch {
public:
    BareWatch(const etcd::ClientOptions& options, const std::string& prefix)
        : client_(etcd::Client::create(options).value()) { // the bench's own, so valid
        etcd::pb::WatchCreateRequest request;
        request.set_key(prefix);
        request.set_range_end(etcd::prefixRangeEnd(prefix));
        auto created = created_.get_future();
        watch_ = client_->watch(request, {[this](const etcd::pb::WatchResponse& response) {
                                              const auto now = Clock::now();
                                              std::vector<int64_t> revisions;
                                              for (const auto& event : response.events())
                                                  revisions.push_back(event.kv().mod_revision());
                                              {
                                                  std::lock_guard lock(mutex_);
                                                  if (!std::exchange(answered_, true))
                                                      created_.set_value();
                                                  for (int64_t revision : revisions)
                                                      arrivals_.emplace(revision, now);
                                              }
                                              handOn(std::move(revisions));
                                          },
                                          nullptr});
        created.wait();
    }
    std::map<int64_t, Clock::time_point> arrivals() const {
        std::lock_guard lock(mutex_);
        return arrivals_;
    }
    // Read on the GUI thread, where it is written.
    const std::map<int64_t, Clock::time_point>& handedOn() const { return handedOn_; }

private:
    void handOn(std::vector<int64_t> revisions) {
        QMetaObject::invokeMethod(
            &guiThread_,
            [this, revisions = std::move(revisions)] {
                const auto now = Clock::now();
                for (int64_t revision : revisions)
                    handedOn_.emplace(revision, now);
            },
            Qt::QueuedConnection);
    }

    std::unique_ptr<etcd::Client> client_;
    mutable std::mutex mutex_;
    std::promise<void> created_;
    bool answered_ = false;
    std::map<int64_t, Clock::time_point> arrivals_;
    QObject guiThread_; // its queued calls are dropped with it, after the watch
    std::map<int64_t, Clock::time_point> handedOn_;
    etcd::WatchHandle watch_; // destroyed first: no callback runs after it
};

// Counts the paint events that cover all of `widget`.
class WholeRepaintCounter : public QObject {
public:
    WholeRepaintCounter(QWidget* widget, int& count)
        : widget_(widget)
        , count_(count) {
        if (widget_) // a window without it has nothing to count
            widget_->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint &&
            static_cast<QPaintEvent*>(event)->rect().contains(widget_->rect()))
            ++count_;
        return false;
    }

private:
    QWidget* widget_;
    int& count_;
};

// From each committed write's answer to when `seen` first had its revision. A revision seen
// before its write was answered was on time: 0.
Samples sinceCommitted(std::string name, const std::map<int64_t, Clock::time_point>& committed,
                       const std::map<int64_t, Clock::time_point>& seen) {
    Samples samples{std::move(name), {}};
    for (const auto& [revision, committedAt] : committed) {
        const auto found = seen.find(revision);
        if (found != seen.end()) // never seen: the figure's n says how many were
            samples.add(std::max(Clock::duration::zero(), found->second - committedAt));
    }
    return samples;
}

// Runs `writer` at `eventsPerSecond` for `run` under `prefix`, which `window` watches (live
// already), with a bare watch beside it: when each committed write reached either, and the
// GUI thread's longest stall meanwhile. `label` ends the figures' names.
EventRateFigure measureChurn(const MainWindow& window, LockEventWriter& writer,
                             const etcd::ClientOptions& options, const std::string& prefix,
                             int eventsPerSecond, Clock::duration run, const std::string& label) {
    BareWatch bareWatch(options, prefix); // written to by its own thread and the GUI thread's

    // When the models first showed each revision; on the GUI thread, after every other
    // receiver of the same signal (the charts) has had it too.
    std::map<int64_t, Clock::time_point> shown;
    const QObject receiver; // disconnects before `shown` goes
    QObject::connect(window.lockWatch(), &LockWatch::eventsArrived, &receiver,
                     [&shown](const std::vector<etcd::LockEvent>& events) {
                         const auto now = Clock::now();
                         for (const etcd::LockEvent& event : events)
                             shown.emplace(event.revision, now);
                     });

    // The main tabs painted whole: what a size hint change climbing to them used to cost.
    int wholeRepaints = 0;
    QWidget* tabs = window.findChild<QWidget*>("mainTabs");
    const WholeRepaintCounter counter(tabs, wholeRepaints);

    StallProbe probe;
    IdleThreadStall idleThread;
    std::atomic<bool> written = false;
    std::thread writing([&] {
        writer.run(eventsPerSecond, run);
        written = true;
    });
    runEventsUntil(
        [&] {
            // Events are shown in revision order: the last one shown means all were.
            return written && (writer.lastRevision() == 0 || shown.contains(writer.lastRevision()));
        },
        std::chrono::duration_cast<std::chrono::milliseconds>(run + settleTimeout));
    writing.join();

    const auto committed = writer.committed();
    return {eventsPerSecond,
            writer.achievedPerSecond(),
            sinceCommitted("floor: event to bare watch, " + label, committed, bareWatch.arrivals()),
            sinceCommitted("floor: event to bare watch, then the GUI thread, " + label, committed,
                           bareWatch.handedOn()),
            sinceCommitted("gui: event to model, " + label, committed, shown),
            milliseconds(probe.longest()),
            milliseconds(idleThread.longest()),
            wholeRepaints};
}

std::string rateLabel(int eventsPerSecond) {
    return std::to_string(eventsPerSecond / 1000) + "k events/s";
}

EventRateFigure measureRate(etcd::Client& writerClient, const etcd::ClientOptions& options,
                            int eventsPerSecond, Clock::duration run) {
    const std::string prefix = "/bench/events/" + std::to_string(eventsPerSecond) + "/";
    LockEventWriter writer(writerClient, prefix);

    MainWindow window; // goes before the writer, whose leases' revocation it need not see
    window.setPrefix(QString::fromStdString(prefix));
    window.connectTo(options);
    window.show();
    const LockWatch* watch = window.lockWatch();
    runEventsUntil([watch] { return watch->live(); }, settleTimeout);
    return measureChurn(window, writer, options, prefix, eventsPerSecond, run,
                        rateLabel(eventsPerSecond));
}

} // namespace

std::vector<EventRateFigure>
measureEventToModel(etcd::Client& writer, const etcd::ClientOptions& window, const Scale& scale) {
    const ScratchSettings settings;
    std::vector<EventRateFigure> out;
    for (int rate : eventRates)
        out.push_back(measureRate(writer, window, rate, scale.eventRun));
    return out;
}

WindowLoadFigure measureLoadedWindow(etcd::Client& client, const etcd::ClientOptions& options,
                                     const Scale& scale) {
    const ScratchSettings settings;
    const MonitorShape shape = scale.windowShape;
    const std::string prefix = "/bench/window/";
    // Sessions that hold and queue for every lock, until the figure ends.
    const SessionLeases sessions(client, shape.keysPerLock, 600);
    fillLockKeys(client, prefix, shape, sessions.ids());
    // The churn: other sessions queueing for and releasing the first `churnedLocks` locks.
    LockEventWriter writer(client, prefix, std::min(shape.locks, churnedLocks), 2, 4);

    WindowLoadFigure figure{shape, {}, 0, {}};
    const double residentBefore = residentMb();
    MainWindow window;
    figure.load = loadWindow(window, options, prefix, shape.locks, std::chrono::seconds(120));
    figure.churn =
        measureChurn(window, writer, options, prefix, churnRate, scale.eventRun,
                     rateLabel(churnRate) + " on " + std::to_string(shape.locks) + " locks");
    figure.residentMb = residentMb() - residentBefore;
    return figure;
}

} // namespace lockscope::bench
