#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/anomaly_changes.h"
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
// the next revision. The first listing's pages join the state as they arrive, so a display shows
// the first locks of a million at once. After compaction, a broken stream or a failover it
// re-lists and reconciles (the LockTable reports what the gap implied as recovered events), so
// no holder change is missed or doubled. Lease TTLs are looked up for holders' leases first,
// then the waiters', at the rate their TTLs need (bounded); a deletion is an expiry only with
// evidence (endedByExpiry), and a TTL looked up too long ago is marked stale. A watch that hears
// nothing from etcd for staleAfter (no event, no answer to the progress it asks for when quiet)
// is not live: its TTLs are stale, it is dropped, and the prefix is re-read once etcd answers
// again; each such outage is kept (outage()). Callbacks run on the client's thread; state() is
// thread-safe.
class LockMonitor : public std::enable_shared_from_this<LockMonitor> {
public:
    // A live watch asks etcd for its progress after this much silence, and again as often
    // while silent; a healthy etcd answers within milliseconds (docs/design.md §3b).
    static constexpr std::chrono::milliseconds quietBeforeProgress{500};
    // Silent this long, the watch is not live: two questions went unanswered for a second.
    static constexpr std::chrono::milliseconds staleAfter{2000};

    using Outage = WatchOutage;
    struct Options {
        std::string prefix;
        int64_t pageSize = 5000;
        std::size_t historySize = 10000; // lock events kept, newest last
        // Lease lookups a second: as many as keep every lease shown looked up within its TTL
        // (leaseLookupsPerSecond), within these bounds, so 10k waiters do not flood etcd.
        int minLeaseLookupsPerSecond = 40;
        int maxLeaseLookupsPerSecond = 400;
        std::chrono::milliseconds leaseRefresh{2000}; // the longest a lease goes unlooked-at
        RecipeOverride recipe = RecipeOverride::Auto; // how keys group into locks (LockTable)
        // What an earlier view of this cluster saw of its keys' times (LockTable, SeenTimes).
        std::shared_ptr<const SeenTimesByKey> seenTimes = {};
    };
    // Each batch of lock events, and an empty batch when only TTLs, liveness or the progress of
    // a listing changed.
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
    // changes the state or reaches the listener; start() begins afresh. A listener call under
    // way on another thread ends first, so no listener hears the run's own stop as news.
    void stop();

    LockMonitorState state() const;
    // Hands `read` every lock as the monitor has them, and their revision, in one hold of its
    // lock: for a reader that needs them all once (a recording's checkpoint) and would
    // otherwise copy all of them first (a state() of a million keys is 400 MB).
    void
    readLocks(const std::function<void(int64_t revision, const LockQueues& locks)>& read) const;
    // Brings `state` up to date, copying only what changed since this monitor last filled it:
    // a display updated many times a second copies the few locks each update touched, not all
    // of them. Everything is copied into a state this monitor has not filled, after a re-list,
    // and when the state is older than the 65536 lock changes the monitor remembers.
    LockChanges update(LockMonitorState& state) const;
    // update(), copying at most `maxLocks` locks (in name order; the state keeps the names it
    // still lacks, LockMonitorState::pendingLocks, and the next call goes on from there), and
    // nothing at once when the monitor is busy right now (a page of a listing, its lease
    // round). For a GUI thread, which must neither wait for that nor copy a million locks in
    // one go.
    std::optional<LockChanges> tryUpdate(LockMonitorState& state, std::size_t maxLocks) const;
    // Brings `seen` up to date with the anomalies of the locks changed since it was last
    // brought (of all of them the first time, after a re-list, or when the changes remembered
    // no longer reach back), appending to `changes` what appeared and what went, lock by lock
    // in name order (those of locks gone first). Cheap between two batches of events: a
    // recording asks after each.
    void updateAnomalies(SeenAnomalies& seen, std::vector<AnomalyChange>& changes) const;
    // Whether the view is live, and why not when it is not: cheaper than state().
    std::pair<bool, std::string> liveness() const;
    // The outage going on, or the last one; nothing before the first.
    std::optional<Outage> outage() const;
    std::vector<LockEvent> history() const;
    // Before asking etcd for a force release: its deletions are reported as ForceReleased
    // (LockTable::expectForceRelease).
    void expectForceRelease(const std::string& key, int64_t lease);
    const Options& options() const { return options_; }

private:
    LockMonitor(Client& client, Options options, Listener listener, RetryListener retryListener);

    LockChanges copyChanges(LockMonitorState& state, std::size_t maxLocks) const; // mutex_ held
    // Copies (or erases) in `state` the locks of `range` that table_ has or `state` had, at most
    // `budget` of them, each named in `copied`; returns the last one when the budget ran out.
    std::optional<std::string> copyRange(LockMonitorState& state,
                                         const LockNameRanges::Range& range, std::size_t budget,
                                         std::vector<std::string>& copied) const;

    // Every step carries the generation it belongs to (start() begins one, stop() ends it)
    // and checks it in the same hold of mutex_ as the change it makes.
    bool current(uint64_t generation) const; // with mutex_ held
    void list(uint64_t generation);
    // Each page of a listing; false to read no further.
    bool onPage(uint64_t generation, Result<pb::RangeResponse> page);
    // A listing that failed or stopped part way: a first load starts again from nothing.
    // mutex_ held.
    void abandonListing();
    void watchFrom(uint64_t generation, int64_t revision);
    void onWatchResponse(uint64_t generation, const pb::WatchResponse& response);
    void onWatchEnd(uint64_t generation, const Error& error);
    void retryLater(uint64_t generation, const Error& error);
    // Every quietBeforeProgress: asks a quiet live watch for its progress, and gives up on one
    // silent for staleAfter.
    void checkFreshness(uint64_t generation);
    // The view stops being live now (mutex_ held): an outage begins if it was live.
    void leaveLive(const std::string& reason);
    void record(uint64_t generation, std::vector<LockEvent> events);
    // The listeners, called outside mutex_ unless `generation` has ended. stop() waits for a
    // call under way before it ends the run (not one on its own thread: a listener may stop
    // its monitor), so no call sees the run stopped, and none comes after.
    void notify(uint64_t generation, const std::vector<LockEvent>& events);
    void notifyRetry(uint64_t generation, const Retry& retry);
    template <class Call> void callListener(uint64_t generation, const Call& call);
    void tickLeases(uint64_t generation);
    void lookUpLease(uint64_t generation, int64_t lease);
    // Logs every lock holding a key on `lease` as changed (its keys' anomalies did).
    void changedLocksOf(int64_t lease);

    Client& client_;
    const uint64_t id_; // tells the states this monitor filled from others'
    const Options options_;
    const Listener listener_;
    const RetryListener retryListener_;
    // Held while a listener runs (callListener), and by stop() as it ends the run; before
    // mutex_. Recursive, as a listener may stop the monitor, or start it, on its own thread.
    std::recursive_mutex listening_;

    mutable std::mutex mutex_; // guards everything below
    bool running_ = false;
    uint64_t generation_ = 0;
    LockTable table_;
    LockChangeLog changes_; // of table_'s locks
    // A listing in progress: keys read, of how many. A re-list reconciles once the last page is
    // in; until then its pages wait here.
    int64_t listedKeys_ = 0;
    int64_t listingKeys_ = 0;
    std::vector<mvccpb::KeyValue> relisted_;
    std::map<int64_t, LeaseTtl> leases_;
    // Leases a lookup found gone, with evidence that they expired, before their keys' deletions
    // came: those deletions are expiries.
    std::set<int64_t> expiredBeforeDeleted_;
    uint64_t leasesStamp_ = 1; // bumped whenever leases_ changes
    std::deque<LockEvent> history_;
    bool live_ = false;
    std::string status_ = "starting";
    // The last word from etcd on the watch or the listing (an event, a progress answer, a page).
    std::chrono::steady_clock::time_point lastHeard_{};
    std::chrono::steady_clock::time_point progressAskedAt_{};
    std::chrono::steady_clock::time_point checkedAt_{}; // the last freshness check
    std::optional<Outage> outage_;
    std::chrono::milliseconds backoff_{0};
    int failures_ = 0; // since the last successful list
    WatchHandle watch_;
    int leaseLookupsInFlight_ = 0;
};

} // namespace etcd
