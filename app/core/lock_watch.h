#pragma once

#include "app/core/event_log_model.h"
#include "app/core/lock_event_inbox.h"
#include "app/core/own_lock.h"
#include "etcdclient/locks/lock_monitor.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QTimer>
#include <deque>
#include <memory>
#include <optional>

namespace lockscope {

class EventLogModel;
class LockListModel;
class LockQueueModel;
class MonitorTap;

// Runs a LockMonitor over one prefix and keeps the lock models up to date on the GUI thread.
// The monitor's listener (the client's thread) only queues events in a LockEventInbox and, when
// they are the first since the last drain, posts one drain to the GUI thread: what arrives
// before that drain runs joins it, so a burst of etcd events costs one model update. A drain
// that finds the monitor busy comes again when the listener next runs (or after BusyRetryMs,
// when the monitor's work ends without calling it).
// A GUI-thread timer moves the countdowns at ~4 Hz. Nothing here waits.
class LockWatch : public QObject {
    Q_OBJECT
public:
    static constexpr int TickIntervalMs = 250;
    // How soon a drain comes again when the monitor was busy.
    static constexpr int BusyRetryMs = 2;
    // The most locks one drain copies and shows: a few milliseconds' work.
    static constexpr std::size_t SliceLocks = 500;

    explicit LockWatch(QObject* parent = nullptr);
    ~LockWatch() override;

    // The client must outlive the watch, or be taken away (null) before it goes.
    void setClient(etcd::Client* client);
    // Every run of the monitor from the next one on is told to `tap` too (a recording); set
    // before the first prefix. The watch keeps it until it goes.
    void setTap(std::shared_ptr<MonitorTap> tap) { tap_ = std::move(tap); }
    // Restarts the monitor on the new prefix; the models start over, but the event log: each
    // prefix keeps its own for the session (the last KeptHistories), so going back to a
    // prefix brings back what was seen under it, and so do the times seen of keys still there
    // (how long each has waited or held: etcd keeps no times). Nothing is watched before the first
    // prefix is set. `recipe` says how the keys form locks (etcd::LockTable); a new one restarts
    // the monitor.
    void setPrefix(const std::string& prefix,
                   etcd::RecipeOverride recipe = etcd::RecipeOverride::Auto);
    etcd::RecipeOverride recipe() const { return recipe_; }
    static constexpr std::size_t KeptHistories = 8;
    // The most keys whose times are carried from one view to the next (about 100 bytes each).
    static constexpr std::size_t MaxSeenKeys = 100000;
    // What an earlier connection to this cluster saw (seen_times_file.h), for the views from
    // the next prefix set on; and what this watch has seen until now, for the next connection.
    void carrySeenTimes(etcd::SeenTimesByKey times);
    etcd::SeenTimesByKey seenTimesNow() const;
    const std::string& prefix() const { return prefix_; }
    bool hasPrefix() const { return prefixSet_; }

    // The lock whose queue LockQueueModel shows (a name as etcd has it); empty for none.
    void selectLock(const std::string& name);
    const std::string& selectedLock() const { return selectedLock_; }
    // The same as text (displayKey): how LockActions names it.
    QString selectedLockText() const;

    // A force release is about to be sent: the deletions it causes are logged as force-released.
    void expectForceRelease(const QByteArray& key, qint64 lease);
    // One of our own locks changed state: the lock list marks it (if it is under the prefix),
    // and a lost one is an event.
    void showOwnLock(const OwnLock& own);

    LockListModel* locks() const { return locks_; }
    LockQueueModel* queue() const { return queue_; }
    EventLogModel* events() const { return events_; }
    bool live() const { return live_; }
    const QString& whyNotLive() const { return notLiveReason_; }
    const etcd::LockMonitorState& state() const { return state_; }
    // Who waits for whom among the locks shown, kept from each drain's changes while at most
    // maxGraphWaits() keys wait (empty beyond: graphKept() is false). A wait costs the graph
    // about 900 bytes, and the Blockers page's once-a-second questions a walk of every waiting
    // session on the GUI thread: 100k locks of 10 keys took 800 MB and stalled the window 2.8 s.
    const etcd::WaitForGraph& waitForGraph() const { return graph_; }
    bool graphKept() const { return graphKept_; }
    static constexpr std::size_t DefaultMaxGraphWaits = 50000;
    std::size_t maxGraphWaits() const { return maxGraphWaits_; }
    void setMaxGraphWaits(std::size_t waits) { maxGraphWaits_ = waits; }
    // The session picked on the Blockers page (none: nullopt): the lock list marks the locks it
    // waits in or blocks, following the graph; the queue and the Stage mark its keys. A new
    // prefix drops it.
    void pickSession(std::optional<etcd::SessionId> session);
    const std::optional<etcd::SessionId>& pickedSession() const { return picked_; }

signals:
    // `why` says what the monitor is waiting for when it is not live.
    void livenessChanged(bool live, const QString& why);
    // The view stopped being live after it was: what it shows is as of `since`, the last word
    // heard from etcd (etcd::LockMonitor::Outage).
    void outageBegan(const QDateTime& since, const QString& reason);
    // It is live again: the prefix was re-read at `revision`, done at `until`.
    void outageEnded(const QDateTime& since, const QDateTime& until, qint64 revision);
    void selectedLockChanged(const QString& name);
    void pickedSessionChanged();
    // After each update of the models, drained or ticked: a good moment to redraw a summary.
    void refreshed();
    // The lock events of one drain, oldest first (for charts and timelines).
    void eventsArrived(const std::vector<etcd::LockEvent>& events);

private:
    void restart();
    void stopMonitor(); // and tells the tap
    // True when there was something to drain (and refreshed() was emitted).
    bool drain();
    void drainAgainIn(int ms); // one retry at a time
    void tick();
    void showSelectedQueue();
    void setLiveness(bool live, const QString& why);
    // On a change of the monitor's liveness: the outage it began or ended, said once.
    void noteOutage();
    bool underPrefix(const std::string& lock) const;
    void markPickedLocks();

    LockListModel* locks_;
    LockQueueModel* queue_;
    EventLogModel* events_;
    etcd::Client* client_ = nullptr;
    std::string prefix_ = "/";
    etcd::RecipeOverride recipe_ = etcd::RecipeOverride::Auto;
    bool prefixSet_ = false;
    std::string selectedLock_;
    QHash<QByteArray, OwnLock> ownLocks_; // the last state of each, for the list of any prefix
    // The event logs of the prefixes watched before, most recently left last.
    std::deque<std::pair<std::string, std::deque<LoggedEvent>>> otherHistories_;
    // Shared with the monitor's listener, which may still run after the monitor is replaced.
    std::shared_ptr<LockEventInbox> inbox_;
    std::shared_ptr<etcd::LockMonitor> monitor_;
    std::shared_ptr<MonitorTap> tap_;
    etcd::LockMonitorState state_;
    etcd::WaitForGraph graph_;
    bool graphKept_ = true;
    std::size_t maxGraphWaits_ = DefaultMaxGraphWaits;
    std::optional<etcd::SessionId> picked_;
    // What the views before saw (etcd::SeenTimes): shared with the monitors started since,
    // never changed once made, so a restart copies none of up to MaxSeenKeys keys.
    std::shared_ptr<const etcd::SeenTimesByKey> seenTimes_ =
        std::make_shared<const etcd::SeenTimesByKey>();
    bool live_ = false;
    QString notLiveReason_;
    bool monitorLive_ = false;   // state_.live when the outage was last looked at
    uint64_t outageEndSaid_ = 0; // the number of the last outage whose end was said
    QTimer tickTimer_;
    bool drainRetryPending_ = false;
};

} // namespace lockscope
