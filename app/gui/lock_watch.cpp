#include "app/gui/lock_watch.h"

#include "app/core/event_log_model.h"
#include "app/core/key_text.h"
#include "app/core/lock_list_model.h"
#include "app/core/queue_model.h"

#include <mutex>

namespace lockscope {

struct LockWatch::Inbox {
    std::mutex mutex;
    std::vector<etcd::LockEvent> events; // since the last drain
    bool dirty = false;
};

LockWatch::LockWatch(QObject* parent)
    : QObject(parent)
    , locks_(new LockListModel(this))
    , queue_(new QueueModel(this))
    , events_(new EventLogModel(this)) {
    drainTimer_.setInterval(DrainIntervalMs);
    connect(&drainTimer_, &QTimer::timeout, this, &LockWatch::drain);
    tickTimer_.setInterval(TickIntervalMs);
    connect(&tickTimer_, &QTimer::timeout, this, &LockWatch::tick);
}

LockWatch::~LockWatch() {
    // Only stop: the models and views going down with us need no last update.
    if (monitor_)
        monitor_->stop();
}

void LockWatch::setClient(etcd::Client* client) {
    client_ = client;
    restart();
}

void LockWatch::setPrefix(const std::string& prefix) {
    if (prefix == prefix_ && monitor_)
        return;
    prefix_ = prefix;
    restart();
}

void LockWatch::restart() {
    if (monitor_)
        monitor_->stop();
    monitor_.reset();
    state_ = {};
    locks_->setState(state_);
    events_->clear();
    showSelectedQueue();
    if (!client_) {
        drainTimer_.stop();
        tickTimer_.stop();
        setLiveness(false, tr("not connected"));
        return;
    }
    inbox_ = std::make_shared<Inbox>();
    etcd::LockMonitor::Options options;
    options.prefix = prefix_;
    // Runs on the client's thread: no Qt here, only the inbox under its mutex.
    auto listener = [inbox = inbox_](const std::vector<etcd::LockEvent>& events) {
        std::lock_guard lock(inbox->mutex);
        inbox->events.insert(inbox->events.end(), events.begin(), events.end());
        inbox->dirty = true;
    };
    monitor_ = etcd::LockMonitor::create(*client_, options, listener);
    monitor_->start();
    setLiveness(false,
                tr("loading the locks under %1").arg(QString::fromStdString(displayKey(prefix_))));
    drainTimer_.start();
    tickTimer_.start();
}

void LockWatch::drain() {
    std::vector<etcd::LockEvent> events;
    {
        std::lock_guard lock(inbox_->mutex);
        if (!inbox_->dirty)
            return;
        inbox_->dirty = false;
        events.swap(inbox_->events);
    }
    state_ = monitor_->state();
    locks_->setState(state_);
    showSelectedQueue();
    events_->append(events);
    setLiveness(state_.live, QString::fromStdString(state_.status));
    if (!events.empty())
        emit eventsArrived(events);
    emit refreshed();
}

void LockWatch::tick() {
    locks_->tick();
    queue_->tick();
    emit refreshed();
}

void LockWatch::selectLock(const std::string& name) {
    if (name == selectedLock_)
        return;
    selectedLock_ = name;
    showSelectedQueue();
    emit selectedLockChanged(QString::fromStdString(displayKey(name)));
    emit refreshed();
}

void LockWatch::showSelectedQueue() {
    const auto queue = state_.locks.find(selectedLock_);
    queue_->setQueue(queue == state_.locks.end() ? nullptr : &queue->second, state_.leases);
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
