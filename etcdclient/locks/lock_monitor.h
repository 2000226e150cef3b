#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/lock_change_log.h"
#include "etcdclient/locks/lock_table.h"
#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

namespace etcd {

// Watches every lock under a prefix: a paged snapshot pinned at one revision, then a watch from
// the next revision. After compaction, a broken stream or a failover it re-lists and reconciles
// (the LockTable reports what the gap implied as recovered events), so no holder change is
// missed or doubled. Lease TTLs are looked up for holders first, then waiters nearest the
// front, at a bounded rate. Callbacks run on the client's thread; state() is thread-safe.
class LockMonitor : public std::enable_shared_from_this<LockMonitor> {
public:
    struct Options {
        std::string prefix;
        int64_t pageSize = 5000;
        std::size_t historySize = 10000; // lock events kept, newest last
        int leaseLookupsPerSecond = 40;  // so 10k waiters do not flood etcd
        std::chrono::milliseconds leaseRefresh{2000};
        // After each listing, the client's thread also copies the locks for the next update()
        // that must copy them all, which then only moves them in: a GUI thread taking 10k
        // locks was busy 75 ms copying them. Costs that copy's memory until it is taken.
        bool prepareFullCopy = false;
    };
    // Each batch of lock events, and an empty batch when only TTLs or liveness changed.
    using Listener = std::function<void(const std::vector<LockEvent>&)>;
    // A list or watch that failed, and when the monitor tries again: so a user can say it is
    // reconnecting, or give up on an error retrying cannot fix (permission denied).
    struct Retry {
        int attempt = 0; // failures since the view was last live, from 1
        std::chrono::milliseconds delay{};
        Error error;
    };
    using RetryListener = std::function<void(const Retry&)>;

    static std::shared_ptr<LockMonitor> create(Client& client, Options options,
                                               Listener listener = nullptr,
                                               RetryListener retryListener = nullptr);
    ~LockMonitor();

    void start();
    // Once it returns, nothing the stopped run started (a read, a watch, a lease lookup)
    // changes the state or reaches the listener; start() begins afresh.
    void stop();

    LockMonitorState state() const;
    // Brings `state` up to date, copying only what changed since this monitor last filled it:
    // a display updated many times a second copies the few locks each update touched, not all
    // of them. Everything is copied into a state this monitor has not filled, after a re-list,
    // and when the state is older than the 65536 lock changes the monitor remembers.
    LockChanges update(LockMonitorState& state) const;
    // update(), unless the monitor is busy right now (loading a listing of many keys, looking
    // over its leases): then nothing, at once. For a GUI thread, which must not wait for that.
    std::optional<LockChanges> tryUpdate(LockMonitorState& state) const;
    // Whether the view is live, and why not when it is not: cheaper than state().
    std::pair<bool, std::string> liveness() const;
    std::vector<LockEvent> history() const;
    // Before asking etcd for a force release: its deletions are reported as ForceReleased
    // (LockTable::expectForceRelease).
    void expectForceRelease(const std::string& key, int64_t lease);
    const Options& options() const { return options_; }

private:
    LockMonitor(Client& client, Options options, Listener listener, RetryListener retryListener);

    LockChanges copyChanges(LockMonitorState& state) const; // with mutex_ held
    // Moves the prepared copy into `state` when the changes since it are known: what changed
    // after it, or nullopt when it cannot serve (none, or too old).
    std::optional<std::set<std::string>> takePreparedCopy(LockMonitorState& state) const;

    // Every step carries the generation it belongs to (start() begins one, stop() ends it)
    // and checks it in the same hold of mutex_ as the change it makes.
    bool current(uint64_t generation) const; // with mutex_ held
    void list(uint64_t generation);
    void onListed(uint64_t generation, Result<pb::RangeResponse> listed);
    void watchFrom(uint64_t generation, int64_t revision);
    void onWatchResponse(uint64_t generation, const pb::WatchResponse& response);
    void onWatchEnd(uint64_t generation, const Error& error);
    void retryLater(uint64_t generation, const Error& error);
    void record(uint64_t generation, std::vector<LockEvent> events);
    void tickLeases(uint64_t generation);
    void lookUpLease(uint64_t generation, int64_t lease);
    // Logs every lock holding a key on `lease` as changed (its keys' anomalies did).
    void changedLocksOf(int64_t lease);

    Client& client_;
    const uint64_t id_; // tells the states this monitor filled from others'
    const Options options_;
    const Listener listener_;
    const RetryListener retryListener_;

    mutable std::mutex mutex_; // guards everything below
    bool running_ = false;
    uint64_t generation_ = 0;
    LockTable table_;
    LockChangeLog changes_; // of table_'s locks
    struct PreparedCopy {
        uint64_t stamp; // of changes_ when made
        std::map<std::string, LockQueue> locks;
        AnomaliesByLock anomalies;
    };
    mutable std::optional<PreparedCopy> prepared_; // Options::prepareFullCopy; taken once
    std::map<int64_t, LeaseTtl> leases_;
    uint64_t leasesStamp_ = 1; // bumped whenever leases_ changes
    std::deque<LockEvent> history_;
    bool live_ = false;
    std::string status_ = "starting";
    std::chrono::milliseconds backoff_{0};
    int failures_ = 0; // since the last successful list
    WatchHandle watch_;
    int leaseLookupsInFlight_ = 0;
};

} // namespace etcd
