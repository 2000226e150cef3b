#include "etcdclient/locks/lock_monitor.h"

#include "etcdclient/key_range.h"
#include "etcdclient/locks/due_leases.h"
#include "etcdclient/locks/lease_evidence.h"
#include "etcdclient/weak_callback.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace etcd {

namespace {
constexpr std::chrono::milliseconds leaseTick{500};
constexpr std::chrono::milliseconds minBackoff{200};
constexpr std::chrono::milliseconds maxBackoff{3000};
constexpr std::chrono::milliseconds freshnessTick{250};

// While the watch is silent, what is shown is no newer than the last word heard, and neither is
// a TTL but one looked up a moment ago (its lookup answered: newer evidence than the watch's).
bool staleInSilence(const LeaseTtl& ttl, std::chrono::steady_clock::time_point now) {
    return ttl.ttlSeconds >= 0 && now - ttl.fetchedAt > LockMonitor::quietBeforeProgress;
}

// A re-read after a gap reports what the gap implies (LockTable::load), each event somewhere
// between the gap's start (the last word heard) and the re-read (`now`); the table counts a wait
// or hold that ended in it up to `now`: an upper bound ("held 28 s" for a 10 s hold, when it was
// taken for the time itself). It lasted at least until the gap began: a lower bound, or nothing
// when that is 0. Both are kept: at least `held`, at most `heldAtMost`.
void boundRecovered(std::vector<LockEvent>& events, std::chrono::system_clock::time_point gapFrom,
                    std::chrono::system_clock::time_point now) {
    const auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(now - gapFrom);
    for (LockEvent& event : events) {
        if (!event.recovered)
            continue;
        for (auto [duration, atMost] : {std::pair{&event.waited, &event.waitedAtMost},
                                        std::pair{&event.held, &event.heldAtMost}}) {
            *atMost = *duration;
            if (*duration && **duration - gap > std::chrono::milliseconds(0))
                *duration = **duration - gap;
            else
                duration->reset();
        }
        event.atLeast = event.waited || event.held;
    }
}

// "2.0 s"
std::string seconds(std::chrono::steady_clock::duration duration) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", std::chrono::duration<double>(duration).count());
    return text;
}
} // namespace

std::shared_ptr<LockMonitor> LockMonitor::create(Client& client, Options options, Listener listener,
                                                 RetryListener retryListener) {
    return std::shared_ptr<LockMonitor>(
        new LockMonitor(client, std::move(options), std::move(listener), std::move(retryListener)));
}

namespace {
std::atomic<uint64_t> monitorsCreated{0};
}

LockMonitor::LockMonitor(Client& client, Options options, Listener listener,
                         RetryListener retryListener)
    : client_(client)
    , id_(++monitorsCreated)
    , options_(std::move(options))
    , listener_(std::move(listener))
    , retryListener_(std::move(retryListener))
    , table_(options_.recipe, options_.seenTimes) {}

LockMonitor::~LockMonitor() {
    stop();
}

void LockMonitor::start() {
    uint64_t generation = 0;
    {
        std::lock_guard lock(mutex_);
        if (running_)
            return;
        running_ = true;
        generation = ++generation_;
        leaseLookupsInFlight_ = 0; // the answers to earlier lookups are ignored
        lastHeard_ = checkedAt_ = std::chrono::steady_clock::now();
    }
    list(generation);
    tickLeases(generation);
    checkFreshness(generation);
}

void LockMonitor::stop() {
    WatchHandle watch;
    {
        // After a listener call under way, which sees the run as it was, not stopped; a call
        // after this finds its generation ended.
        std::lock_guard listening(listening_);
        std::lock_guard lock(mutex_);
        running_ = false;
        live_ = false;
        status_ = "stopped";
        ++generation_;
        watch = std::move(watch_);
        abandonListing();
    }
    watch.cancel(); // outside mutex_: it waits for a running callback, which may want mutex_
}

LockMonitorState LockMonitor::state() const {
    LockMonitorState state;
    update(state);
    return state;
}

void LockMonitor::readLocks(const std::function<void(int64_t, const LockQueues&)>& read) const {
    std::lock_guard lock(mutex_);
    read(table_.revision(), table_.locks());
}

LockChanges LockMonitor::update(LockMonitorState& state) const {
    std::lock_guard lock(mutex_);
    return copyChanges(state, std::numeric_limits<std::size_t>::max());
}

std::optional<LockChanges> LockMonitor::tryUpdate(LockMonitorState& state,
                                                  std::size_t maxLocks) const {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock)
        return std::nullopt;
    return copyChanges(state, std::max<std::size_t>(1, maxLocks));
}

LockChanges LockMonitor::copyChanges(LockMonitorState& state, std::size_t maxLocks) const {
    LockChanges copied;
    if (state.monitorId != id_) { // empty, or another monitor's: copy everything
        state.monitorId = id_;
        state.locksStamp = 0;
        state.leasesStamp = 0;
        state.pendingLocks = {};
    }
    state.revision = table_.revision();
    state.live = live_;
    state.status = status_;
    state.failures = failures_;
    state.outage = outage_;
    state.listedKeys = listedKeys_;
    state.listingKeys = listingKeys_;
    state.lockCount = table_.locks().size();
    state.waiting = table_.waiting();
    if (state.leasesStamp != leasesStamp_) {
        state.leases = leases_;
        state.leasesStamp = leasesStamp_;
        copied.leases = true;
    }
    auto changed = changes_.changedAfter(state.locksStamp);
    state.locksStamp = changes_.stamp();
    if (!changed && maxLocks == std::numeric_limits<std::size_t>::max()) {
        copied.all = true;
        state.locks = table_.locks();
        state.anomalies = table_.anomalies();
        state.pendingLocks = {};
        return copied;
    }
    state.pendingLocks.add(changed ? *changed : LockNameRanges::everything());
    for (const LockNameRanges::Range& range : state.pendingLocks.ranges()) {
        const auto stoppedAt =
            copyRange(state, range, maxLocks - copied.locks.size(), copied.locks);
        if (stoppedAt) {
            state.pendingLocks.removeThrough(*stoppedAt);
            return copied;
        }
    }
    state.pendingLocks = {};
    return copied;
}

std::optional<std::string> LockMonitor::copyRange(LockMonitorState& state,
                                                  const LockNameRanges::Range& range,
                                                  std::size_t budget,
                                                  std::vector<std::string>& copied) const {
    // Both maps in name order side by side: a lock the table has is copied, one only the state
    // has is gone.
    const auto& locks = table_.locks();
    auto from = locks.lower_bound(range.first);
    auto to = state.locks.lower_bound(range.first);
    for (; budget > 0; --budget) {
        const bool fromIn = from != locks.end() && range.contains(from->first);
        const bool toIn = to != state.locks.end() && range.contains(to->first);
        if (!fromIn && !toIn)
            return std::nullopt;
        std::string name = !toIn || (fromIn && from->first <= to->first) ? from->first : to->first;
        state.anomalies.erase(name);
        if (fromIn && from->first == name) {
            if (toIn && to->first == name)
                (to++)->second = from->second;
            else
                to = std::next(state.locks.emplace_hint(to, name, from->second));
            if (auto anomalies = table_.anomaliesOf(*from->second); !anomalies.empty())
                state.anomalies[name] = std::move(anomalies);
            ++from;
        } else {
            to = state.locks.erase(to);
        }
        copied.push_back(std::move(name));
    }
    return copied.back();
}

void LockMonitor::updateAnomalies(SeenAnomalies& seen, std::vector<AnomalyChange>& changes) const {
    std::lock_guard lock(mutex_);
    std::optional<LockNameRanges> changed;
    if (seen.monitorId == id_)
        changed = changes_.changedAfter(seen.stamp);
    seen.monitorId = id_;
    seen.stamp = changes_.stamp();
    seen.revision = table_.revision();
    updateChangedAnomalies(seen.byLock, table_, changed, changes);
}

std::pair<bool, std::string> LockMonitor::liveness() const {
    std::lock_guard lock(mutex_);
    return {live_, status_};
}

std::optional<LockMonitor::Outage> LockMonitor::outage() const {
    std::lock_guard lock(mutex_);
    return outage_;
}

bool LockMonitor::current(uint64_t generation) const {
    return running_ && generation == generation_;
}

void LockMonitor::expectForceRelease(const std::string& key, int64_t lease) {
    std::lock_guard lock(mutex_);
    table_.expectForceRelease(key, lease);
}

std::vector<LockEvent> LockMonitor::history() const {
    std::lock_guard lock(mutex_);
    return {history_.begin(), history_.end()};
}

void LockMonitor::list(uint64_t generation) {
    {
        std::lock_guard lock(mutex_);
        if (!current(generation))
            return;
    }
    pb::RangeRequest request;
    request.set_key(options_.prefix);
    request.set_range_end(prefixRangeEnd(options_.prefix));
    request.set_limit(options_.pageSize);
    client_.rangePages(request, [weak = weak_from_this(), generation](auto page) {
        const auto self = weak.lock();
        return self && self->onPage(generation, std::move(page));
    });
}

bool LockMonitor::onPage(uint64_t generation, Result<pb::RangeResponse> page) {
    if (!page) {
        retryLater(generation, Error(page.error().code, "cannot read " + options_.prefix + ": " +
                                                            page.error().message));
        return false;
    }
    const bool last = !page->more();
    const int64_t revision = page->header().revision();
    std::vector<LockEvent> events;
    {
        std::lock_guard lock(mutex_);
        // Checked in the same hold of mutex_ that loads the table: a stop() cannot slip in
        // between the check and the change.
        if (!current(generation))
            return false;
        lastHeard_ = std::chrono::steady_clock::now();
        std::vector<mvccpb::KeyValue> kvs = takeKeyValues(*page->mutable_kvs());
        listedKeys_ += static_cast<int64_t>(kvs.size());
        listingKeys_ = page->count();
        const auto now = std::chrono::system_clock::now();
        if (!table_.loaded()) {
            auto [first, lastName] = table_.loadPage(kvs, revision, now, last);
            if (!kvs.empty())
                changes_.changed({std::move(first), std::move(lastName), false});
        } else {
            relisted_.insert(relisted_.end(), std::make_move_iterator(kvs.begin()),
                             std::make_move_iterator(kvs.end()));
            if (last) {
                events = table_.load(relisted_, revision, now);
                boundRecovered(events, outage_ && !outage_->until ? outage_->since : now, now);
                changes_.changedAll();
            }
        }
        if (last) {
            relisted_ = {};
            listedKeys_ = listingKeys_ = 0;
            if (outage_ && !outage_->until) {
                outage_->until = now;
                outage_->revision = revision;
            }
            live_ = true;
            status_.clear();
            backoff_ = std::chrono::milliseconds(0);
            failures_ = 0;
        }
    }
    if (!last) {
        notify(generation, {}); // the progress, and the first load's new locks
        return true;
    }
    watchFrom(generation, revision + 1);
    record(generation, std::move(events));
    return false;
}

void LockMonitor::abandonListing() {
    if (!table_.loaded() && !table_.locks().empty()) {
        table_ = LockTable(options_.recipe, options_.seenTimes);
        changes_.changedAll();
    }
    relisted_ = {};
    listedKeys_ = listingKeys_ = 0;
}

void LockMonitor::watchFrom(uint64_t generation, int64_t revision) {
    pb::WatchCreateRequest request;
    request.set_key(options_.prefix);
    request.set_range_end(prefixRangeEnd(options_.prefix));
    request.set_start_revision(revision);
    // Not prev_kv: etcd answers it with a read of the store per deletion, in the watch's send
    // loop, which then fell behind at 1k events/s on 100k keys (event to model p99 140 ms
    // against 5.5 ms without; docs/design.md, "prev_kv"). A deleted key's lease is in the table.
    WatchHandle handle =
        client_.watch(request, {weakCallback(this, &LockMonitor::onWatchResponse, generation),
                                weakCallback(this, &LockMonitor::onWatchEnd, generation)});
    {
        std::lock_guard lock(mutex_);
        if (current(generation)) // else stopped meanwhile: this watch is not kept
            std::swap(watch_, handle);
    }
    handle.cancel(); // the previous watch (or this one), outside mutex_
}

void LockMonitor::onWatchResponse(uint64_t generation, const pb::WatchResponse& response) {
    std::vector<LockEvent> events;
    {
        std::lock_guard lock(mutex_);
        if (!current(generation))
            return;
        const auto now = std::chrono::system_clock::now();
        const auto steadyNow = std::chrono::steady_clock::now();
        lastHeard_ = steadyNow; // an event batch, or a progress answer
        for (const auto& event : response.events()) {
            const LockKey* gone =
                event.type() == mvccpb::Event::DELETE ? table_.find(event.kv().key()) : nullptr;
            if (gone && gone->lease != 0) {
                // An expiry only with evidence (endedByExpiry): a countdown at zero may only be
                // stale, and a lease found gone before its keys' deletion came was as likely
                // revoked.
                const int64_t id = gone->lease;
                const auto lease = leases_.find(id);
                const bool expired =
                    lease != leases_.end() &&
                    (lease->second.ttlSeconds < 0
                         ? expiredBeforeDeleted_.contains(id)
                         : endedByExpiry(lease->second, steadyNow, options_.leaseRefresh));
                if (table_.setLeaseExpired(id, expired))
                    changedLocksOf(id); // its keys elsewhere are anomalies now, or no longer
            }
            auto applied = table_.apply(event, event.kv().mod_revision(), now);
            for (const auto& lock : table_.touched())
                changes_.changed(lock);
            events.insert(events.end(), applied.begin(), applied.end());
        }
    }
    if (!events.empty())
        record(generation, std::move(events));
}

void LockMonitor::onWatchEnd(uint64_t generation, const Error& error) {
    if (error.code == ErrorCode::Compacted) {
        {
            std::lock_guard lock(mutex_);
            if (!current(generation))
                return;
            status_ = "re-reading after compaction";
            leaveLive(status_);
        }
        // Told now: a re-list of a large prefix takes seconds, and until it ends the view is
        // not live, whatever it showed last.
        notify(generation, {});
        list(generation); // history is gone: re-list and reconcile
        return;
    }
    retryLater(generation, error);
}

void LockMonitor::retryLater(uint64_t generation, const Error& error) {
    Retry retry{0, {}, error};
    {
        std::lock_guard lock(mutex_);
        if (!current(generation))
            return;
        status_ = error.message;
        leaveLive(status_);
        // Now, not at the retry: until then a half first load would pass for every lock there
        // is, under a progress bar that no longer moves.
        abandonListing();
        backoff_ = std::clamp(backoff_ * 2, minBackoff, maxBackoff);
        retry.delay = backoff_;
        retry.attempt = ++failures_;
    }
    notifyRetry(generation, retry);
    notify(generation, {});
    const auto delay = retry.delay;
    client_.schedule(delay, weakCallback(this, &LockMonitor::list, generation));
}

void LockMonitor::leaveLive(const std::string& reason) {
    if (live_ && (!outage_ || outage_->until)) {
        const auto quiet = std::chrono::steady_clock::now() - lastHeard_;
        outage_ = Outage{std::chrono::system_clock::now() -
                             std::chrono::duration_cast<std::chrono::system_clock::duration>(quiet),
                         reason, std::nullopt, 0, outage_ ? outage_->number + 1 : 1};
    }
    live_ = false;
}

void LockMonitor::checkFreshness(uint64_t generation) {
    bool askProgress = false;
    std::optional<Error> silent;
    {
        std::lock_guard lock(mutex_);
        if (!current(generation))
            return;
        const auto now = std::chrono::steady_clock::now();
        // Our own thread stalled (a starved machine, a long callback): etcd's answers may be
        // waiting to be read, so the silence is counted from now, not blamed on etcd.
        if (now - std::exchange(checkedAt_, now) > staleAfter / 2)
            lastHeard_ = std::max(lastHeard_, now - quietBeforeProgress);
        const auto quiet = now - lastHeard_;
        if (live_ && quiet > staleAfter) {
            silent = Error(ErrorCode::Unavailable, "no answer from etcd for " + seconds(quiet));
            for (auto& [lease, ttl] : leases_)
                ttl.stale = ttl.stale || staleInSilence(ttl, now);
            ++leasesStamp_;
        } else if (live_ && quiet >= quietBeforeProgress &&
                   now - progressAskedAt_ >= quietBeforeProgress) {
            askProgress = true;
            progressAskedAt_ = now;
        }
    }
    if (askProgress)
        client_.requestWatchProgress(); // answered on the watch: onWatchResponse hears it
    if (silent) {
        // A watch that went silent may have missed events: dropped, and the prefix re-read
        // (reconciled, LockTable::load) once etcd answers.
        WatchHandle watch;
        {
            std::lock_guard lock(mutex_);
            watch = std::move(watch_);
        }
        watch.cancel();
        retryLater(generation, *silent);
    }
    client_.schedule(freshnessTick, weakCallback(this, &LockMonitor::checkFreshness, generation));
}

void LockMonitor::changedLocksOf(int64_t lease) {
    for (const std::string& name : table_.locksOfLease(lease))
        changes_.changed(name);
}

void LockMonitor::record(uint64_t generation, std::vector<LockEvent> events) {
    {
        std::lock_guard lock(mutex_);
        if (!current(generation))
            return;
        for (const auto& e : events)
            history_.push_back(e);
        while (history_.size() > options_.historySize)
            history_.pop_front();
    }
    notify(generation, events);
}

template <class Call> void LockMonitor::callListener(uint64_t generation, const Call& call) {
    std::lock_guard listening(listening_);
    {
        std::lock_guard lock(mutex_);
        if (!current(generation))
            return;
    }
    call();
}

void LockMonitor::notify(uint64_t generation, const std::vector<LockEvent>& events) {
    if (listener_)
        callListener(generation, [&] { listener_(events); });
}

void LockMonitor::notifyRetry(uint64_t generation, const Retry& retry) {
    if (retryListener_)
        callListener(generation, [&] { retryListener_(retry); });
}

void LockMonitor::tickLeases(uint64_t generation) {
    std::vector<int64_t> due;
    {
        std::lock_guard lock(mutex_);
        if (!current(generation)) // stopped, or restarted: that start() ticks on its own
            return;
        // The leases in use, not every key: a million keys of a few sessions are a few leases,
        // and walking the keys here held the watch's events back for 20 ms a tick at 100k.
        const auto& uses = table_.leaseUses();
        const std::size_t known = leases_.size();
        std::erase_if(leases_, [&](const auto& lease) { return !uses.contains(lease.first); });
        std::erase_if(expiredBeforeDeleted_, [&](int64_t lease) { return !uses.contains(lease); });
        bool changed = leases_.size() != known;
        const auto now = std::chrono::steady_clock::now();
        const bool silent = now - lastHeard_ > staleAfter;
        for (auto& [lease, ttl] : leases_) {
            const bool stale = leaseTtlStale(ttl, now, options_.leaseRefresh) ||
                               (silent && staleInSilence(ttl, now));
            changed = changed || stale != ttl.stale;
            ttl.stale = stale;
        }
        if (changed)
            ++leasesStamp_;

        const int perSecond = leaseLookupsPerSecond(uses, leases_, options_.leaseRefresh,
                                                    options_.minLeaseLookupsPerSecond,
                                                    options_.maxLeaseLookupsPerSecond);
        const int budget = std::max(1, perSecond * static_cast<int>(leaseTick.count()) / 1000) -
                           leaseLookupsInFlight_;
        due = dueLeases(uses, leases_, now, options_.leaseRefresh,
                        static_cast<std::size_t>(std::max(0, budget)));
        leaseLookupsInFlight_ += static_cast<int>(due.size());
    }
    for (int64_t lease : due)
        lookUpLease(generation, lease);
    client_.schedule(leaseTick, weakCallback(this, &LockMonitor::tickLeases, generation));
}

void LockMonitor::lookUpLease(uint64_t generation, int64_t lease) {
    pb::LeaseTimeToLiveRequest request;
    request.set_id(lease);
    std::weak_ptr<LockMonitor> weak = weak_from_this();
    client_.leaseTimeToLive(
        request, [weak, generation, lease](Result<pb::LeaseTimeToLiveResponse> reply) {
            auto self = weak.lock();
            if (!self)
                return;
            {
                std::lock_guard lock(self->mutex_);
                if (!self->current(generation))
                    return;
                --self->leaseLookupsInFlight_;
                if (!reply)
                    return;
                const auto now = std::chrono::steady_clock::now();
                LeaseTtl& ttl = self->leases_[lease];
                const LeaseTtl before = ttl;
                const bool known = ttl.fetchedAt != std::chrono::steady_clock::time_point{};
                if (known && reply->ttl() < 0 &&
                    endedByExpiry(before, now, self->options_.leaseRefresh))
                    self->expiredBeforeDeleted_.insert(lease);
                ttl.stale = false;
                ttl.jumpedUp = known && reply->ttl() > ttl.remainingAt(now) + 1.0;
                ttl.ttlSeconds = reply->ttl();
                ttl.grantedTtlSeconds = reply->grantedttl();
                ttl.fetchedAt = now;
                // A copy counting down from the last look still shows what this one says unless
                // the lease was renewed, granted anew or has gone: no news, no copy.
                if (!known || ttl.jumpedUp != before.jumpedUp || before.stale ||
                    ttl.grantedTtlSeconds != before.grantedTtlSeconds ||
                    (ttl.ttlSeconds < 0) != (before.ttlSeconds < 0) ||
                    std::abs(ttl.remainingAt(now) - before.remainingAt(now)) >= 1.0)
                    ++self->leasesStamp_;
                if (self->table_.setLeaseExpired(lease, reply->ttl() < 0))
                    self->changedLocksOf(lease); // its keys are anomalies now, or no longer
            }
            self->notify(generation, {});
        });
}

} // namespace etcd
