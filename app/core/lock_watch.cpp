#include "app/core/lock_watch.h"

#include "app/core/background_disposal.h"
#include "app/core/event_log_model.h"
#include "app/core/guarded_post.h"
#include "app/core/key_text.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_queue_model.h"
#include "app/core/monitor_tap.h"
#include "app/core/own_departures.h"
#include "app/core/own_lock.h"

#include <algorithm>
#include <utility>

namespace lockscope {

namespace {
QDateTime dateTime(std::chrono::system_clock::time_point at) {
    return QDateTime::fromMSecsSinceEpoch(
        std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count());
}
// "14:02:07.310": when the view was last current.
QString wallClock(std::chrono::system_clock::time_point at) {
    return dateTime(at).toString("HH:mm:ss.zzz");
}
} // namespace

LockWatch::LockWatch(QObject* parent)
    : QObject(parent)
    , locks_(new LockListModel(this))
    , queue_(new LockQueueModel(this))
    , events_(new EventLogModel(this)) {
    tickTimer_.setInterval(TickIntervalMs);
    connect(&tickTimer_, &QTimer::timeout, this, &LockWatch::tick);
}

LockWatch::~LockWatch() {
    // Only stop: the models and views going down with us need no last update.
    stopMonitor();
}

void LockWatch::setClient(etcd::Client* client) {
    client_ = client;
    restart();
}

void LockWatch::setPrefix(const std::string& prefix, etcd::RecipeOverride recipe) {
    if (prefix == prefix_ && recipe == recipe_ && monitor_)
        return;
    recipe_ = recipe;
    if (prefix != prefix_ && events_->rowCount() > 0) {
        otherHistories_.emplace_back(prefix_, events_->take());
        if (otherHistories_.size() > KeptHistories)
            otherHistories_.pop_front();
    }
    prefix_ = prefix;
    prefixSet_ = true;
    restart();
    const auto kept = std::find_if(otherHistories_.begin(), otherHistories_.end(),
                                   [&](const auto& history) { return history.first == prefix_; });
    if (kept != otherHistories_.end()) {
        events_->restore(std::move(kept->second));
        otherHistories_.erase(kept);
    }
}

void LockWatch::stopMonitor() {
    if (!monitor_)
        return;
    monitor_->stop();
    disposeInBackground(std::move(monitor_)); // its table: a million locks free in seconds
    if (tap_)
        tap_->runStopped(); // after the stop: the run's listener calls are over
}

void LockWatch::restart() {
    // What this view saw, for the next views of these keys: a prefix left and watched again
    // shows how long its keys have waited or held, not "at least" since it came back. Taken
    // before the monitor's table is freed beside it, which would slow every allocation here.
    if (!state_.locks.empty())
        disposeInBackground(std::exchange(
            seenTimes_, std::make_shared<const etcd::SeenTimesByKey>(seenTimesNow())));
    stopMonitor();
    disposeInBackground(std::exchange(state_, {}));
    disposeInBackground(std::exchange(graph_, {}));
    graphKept_ = true;
    pickSession(std::nullopt);
    monitorLive_ = false;
    outageEndSaid_ = 0;
    locks_->clearOwnLocks();
    for (const OwnLock& own : ownLocks_)
        if (underPrefix(own.lock))
            locks_->setOwnLock(own);
    locks_->setState(state_);
    events_->clear();
    showSelectedQueue();
    if (!client_) {
        tickTimer_.stop();
        setLiveness(false, tr("not connected"));
        return;
    }
    if (!prefixSet_) {
        tickTimer_.stop();
        setLiveness(false, tr("no lock prefix chosen yet"));
        return;
    }
    inbox_ = std::make_shared<LockEventInbox>();
    etcd::LockMonitor::Options options;
    options.prefix = prefix_;
    options.recipe = recipe_;
    options.seenTimes = seenTimes_;
    // Runs on the client's thread: a queued drain when the inbox asks for one, and the tap told.
    // The monitor, for the tap, is set before it starts; the tap is ours, kept past the run's
    // calls (the listener may be destroyed on the client's thread: it holds no QObject).
    auto monitor = std::make_shared<std::weak_ptr<etcd::LockMonitor>>();
    auto listener = [inbox = inbox_, watch = QPointer<LockWatch>(this), tap = tap_.get(),
                     monitor](const std::vector<etcd::LockEvent>& events) {
        if (tap)
            if (const auto running = monitor->lock())
                tap->onEvents(*running, events);
        if (inbox->add(events))
            postGuarded(watch, [](LockWatch* self) { self->drain(); });
    };
    monitor_ = etcd::LockMonitor::create(*client_, options, listener);
    *monitor = monitor_;
    if (tap_)
        tap_->runStarted(prefix_);
    monitor_->start();
    setLiveness(false,
                tr("loading the locks under %1").arg(QString::fromStdString(displayKey(prefix_))));
    tickTimer_.start();
}

bool LockWatch::drain() {
    // A drain posted for a monitor since replaced only drains the new inbox early, if at all.
    if (!monitor_)
        return false;
    std::vector<etcd::LockEvent> events;
    if (!inbox_->take(events) && state_.pendingLocks.empty())
        return false;
    // Taken before the state, so no event is shown ahead of the state it changed (but for a
    // lock a long walk of the list has not reached yet: it shows in the next turns). When the
    // monitor is busy (a page of a listing, its lease round, a batch of events) the events go
    // back and the monitor's listener asks for the drain again when it is done, or a timer does
    // shortly: the GUI thread does not wait for the client's. At most SliceLocks
    // locks at a time, the rest in the next turns: a million locks come in a slice a frame.
    const auto changes = monitor_->tryUpdate(state_, SliceLocks);
    if (!changes) {
        inbox_->giveBack(std::move(events));
        drainAgainIn(BusyRetryMs); // for work after which the monitor tells no listener
        return false;
    }
    if (!state_.pendingLocks.empty())
        drainAgainIn(0);        // after what waits in the event loop: a paint, the user's input
    if (state_.listingKeys > 0) // at most as many locks as keys
        locks_->expectRows(static_cast<std::size_t>(state_.listingKeys));
    locks_->update(state_, *changes);
    // Kept while few enough keys wait (over every lock, not only those copied yet); built
    // again from every lock shown once they are few enough again.
    const bool keep = state_.waiting <= maxGraphWaits_;
    if (keep && !graphKept_)
        graph_ = etcd::WaitForGraph::of(state_.locks);
    else if (keep)
        graph_.apply(*changes, state_.locks);
    else if (graphKept_)
        graph_.clear();
    graphKept_ = keep;
    if (picked_)
        markPickedLocks();
    if (changes->leases ||
        std::binary_search(changes->locks.begin(), changes->locks.end(), selectedLock_))
        showSelectedQueue();
    noteOutage(); // its line goes before the events a re-read recovered
    events_->append(events, nameOwnDepartures(events, ownLocks_));
    // Live once the models show the whole listing too, not only the monitor's copy.
    const QString why =
        state_.failures > 0
            ? tr("reconnecting: %1").arg(QString::fromStdString(state_.status))
            : tr("loading the locks under %1").arg(QString::fromStdString(displayKey(prefix_)));
    setLiveness(state_.live && state_.pendingLocks.empty(),
                state_.outage && !state_.outage->until
                    ? tr("stale since %1 — %2").arg(wallClock(state_.outage->since), why)
                    : why);
    if (!events.empty())
        emit eventsArrived(events);
    emit refreshed();
    return true;
}

void LockWatch::noteOutage() {
    if (state_.live == std::exchange(monitorLive_, state_.live))
        return;
    // The monitor changes its outage only as it leaves or regains liveness, with the state.
    const auto& outage = state_.outage;
    if (!outage)
        return;
    const QDateTime since = dateTime(outage->since);
    if (!outage->until) {
        events_->appendOutage(outage->since, outage->reason, std::chrono::system_clock::now());
        emit outageBegan(since, QString::fromStdString(outage->reason));
    } else if (state_.live && std::exchange(outageEndSaid_, outage->number) != outage->number) {
        // One line for the whole outage, before the events its re-read recovered.
        events_->appendOutage(outage->since, outage->reason, *outage->until, outage->revision);
        emit outageEnded(since, dateTime(*outage->until), outage->revision);
    }
}

void LockWatch::drainAgainIn(int ms) {
    if (!std::exchange(drainRetryPending_, true))
        QTimer::singleShot(ms, this, [this] {
            drainRetryPending_ = false;
            drain();
        });
}

void LockWatch::tick() {
    locks_->tick();
    queue_->tick();
    if (!drain()) // TTLs and liveness, if they changed; a drain ends with its own refreshed()
        emit refreshed();
}

void LockWatch::expectForceRelease(const QByteArray& key, qint64 lease) {
    if (monitor_)
        monitor_->expectForceRelease(key.toStdString(), lease);
}

bool LockWatch::underPrefix(const std::string& lock) const {
    return lock.compare(0, prefix_.size(), prefix_) == 0;
}

void LockWatch::showOwnLock(const OwnLock& own) {
    ownLocks_.insert(QByteArray::fromStdString(own.lock), own);
    if (!underPrefix(own.lock))
        return;
    locks_->setOwnLock(own);
    if (own.lock == selectedLock_)
        showSelectedQueue();
    if (own.state != OwnLock::State::Lost)
        return;
    // The watch sees only the key's deletion; that it was ours, and held, only our session knows.
    std::vector<etcd::LockEvent> lost{{etcd::LockEventKind::Lost, own.lock, own.key.toStdString(),
                                       own.lease, state_.revision, std::chrono::system_clock::now(),
                                       std::nullopt, std::nullopt, false}};
    lost.front().recipe = own.candidacy ? etcd::QueueKind::Election : etcd::QueueKind::Mutex;
    events_->append(lost);
    emit eventsArrived(lost);
}

void LockWatch::selectLock(const std::string& name) {
    if (name == selectedLock_)
        return;
    selectedLock_ = name;
    showSelectedQueue();
    emit selectedLockChanged(selectedLockText());
    emit refreshed();
}

QString LockWatch::selectedLockText() const {
    return QString::fromStdString(displayKey(selectedLock_));
}

void LockWatch::showSelectedQueue() {
    const auto queue = state_.locks.find(selectedLock_);
    queue_->setQueue(queue == state_.locks.end() ? nullptr : &*queue->second, state_.leases);
    // Our key while it is in the queue: waiting, holding, or let go of but not yet gone.
    const auto own = ownLocks_.constFind(QByteArray::fromStdString(selectedLock_));
    const bool inQueue =
        own != ownLocks_.constEnd() && (own->alive() || own->state == OwnLock::State::Releasing);
    queue_->setOwnKey(inQueue ? own->key.toStdString() : std::string());
}

void LockWatch::carrySeenTimes(etcd::SeenTimesByKey times) {
    if (seenTimes_->empty() && times.size() <= MaxSeenKeys) {
        seenTimes_ = std::make_shared<const etcd::SeenTimesByKey>(std::move(times));
        return;
    }
    auto merged = std::make_shared<etcd::SeenTimesByKey>(*seenTimes_);
    etcd::addSeenTimes(times, *merged, MaxSeenKeys);
    seenTimes_ = std::move(merged);
}

etcd::SeenTimesByKey LockWatch::seenTimesNow() const {
    etcd::SeenTimesByKey now;
    now.reserve(std::min(MaxSeenKeys, state_.locks.size() + seenTimes_->size()));
    etcd::addSeenTimes(state_.locks, now, MaxSeenKeys); // the keys shown first: the newest
    etcd::addSeenTimes(*seenTimes_, now, MaxSeenKeys);
    return now;
}

void LockWatch::pickSession(std::optional<etcd::SessionId> session) {
    if (session == picked_)
        return;
    picked_ = std::move(session);
    queue_->setPickedSession(picked_);
    markPickedLocks();
    emit pickedSessionChanged();
}

void LockWatch::markPickedLocks() {
    std::set<std::string> locks;
    if (picked_) {
        for (const etcd::Wait& wait : graph_.waitsFrom(*picked_))
            locks.insert(wait.lock);
        for (const etcd::Wait& wait : graph_.waitsOn(*picked_))
            locks.insert(wait.lock);
    }
    locks_->setPickedLocks(std::move(locks));
}

void LockWatch::setLiveness(bool live, const QString& why) {
    const QString reason = live ? QString() : why;
    if (live == live_ && reason == notLiveReason_)
        return;
    live_ = live;
    notLiveReason_ = reason;
    emit livenessChanged(live_, notLiveReason_);
}

} // namespace lockscope
