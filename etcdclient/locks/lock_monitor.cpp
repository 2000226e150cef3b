#include "etcdclient/locks/lock_monitor.h"

#include "etcdclient/key_range.h"
#include "etcdclient/weak_callback.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>

namespace etcd {

namespace {
constexpr std::chrono::milliseconds leaseTick{500};
constexpr std::chrono::milliseconds minBackoff{200};
constexpr std::chrono::milliseconds maxBackoff{3000};
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
    , retryListener_(std::move(retryListener)) {}

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
    }
    list(generation);
    tickLeases(generation);
}

void LockMonitor::stop() {
    WatchHandle watch;
    {
        std::lock_guard lock(mutex_);
        running_ = false;
        live_ = false;
        status_ = "stopped";
        ++generation_;
        watch = std::move(watch_);
        prepared_.reset();
    }
    watch.cancel(); // outside mutex_: it waits for a running callback, which may want mutex_
}

LockMonitorState LockMonitor::state() const {
    LockMonitorState state;
    update(state);
    return state;
}

LockChanges LockMonitor::update(LockMonitorState& state) const {
    std::lock_guard lock(mutex_);
    return copyChanges(state);
}

std::optional<LockChanges> LockMonitor::tryUpdate(LockMonitorState& state) const {
    std::unique_lock lock(mutex_, std::try_to_lock);
    if (!lock)
        return std::nullopt;
    return copyChanges(state);
}

LockChanges LockMonitor::copyChanges(LockMonitorState& state) const {
    LockChanges copied;
    if (state.monitorId != id_) { // empty, or another monitor's: copy everything
        state.monitorId = id_;
        state.locksStamp = 0;
        state.leasesStamp = 0;
    }
    state.revision = table_.revision();
    state.live = live_;
    state.status = status_;
    if (state.leasesStamp != leasesStamp_) {
        state.leases = leases_;
        state.leasesStamp = leasesStamp_;
        copied.leases = true;
    }
    auto changed = changes_.changedAfter(state.locksStamp);
    state.locksStamp = changes_.stamp();
    if (!changed) {
        copied.all = true;
        changed = takePreparedCopy(state);
        if (!changed) {
            state.locks = table_.locks();
            state.anomalies = table_.anomalies();
            return copied;
        }
    }
    for (const std::string& name : *changed) {
        state.anomalies.erase(name);
        const auto found = table_.locks().find(name);
        if (found == table_.locks().end()) {
            state.locks.erase(name);
            continue;
        }
        state.locks[name] = found->second;
        if (auto anomalies = table_.anomaliesOf(found->second); !anomalies.empty())
            state.anomalies[name] = std::move(anomalies);
    }
    if (!copied.all)
        copied.locks.assign(changed->begin(), changed->end());
    return copied;
}

std::optional<std::set<std::string>> LockMonitor::takePreparedCopy(LockMonitorState& state) const {
    if (!prepared_)
        return std::nullopt;
    auto since = changes_.changedAfter(prepared_->stamp);
    if (since) {
        state.locks = std::move(prepared_->locks);
        state.anomalies = std::move(prepared_->anomalies);
    }
    prepared_.reset();
    return since;
}

std::pair<bool, std::string> LockMonitor::liveness() const {
    std::lock_guard lock(mutex_);
    return {live_, status_};
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
    client_.rangeAll(request, weakCallback(this, &LockMonitor::onListed, generation));
}

void LockMonitor::onListed(uint64_t generation, Result<pb::RangeResponse> listed) {
    if (!listed) {
        retryLater(generation, Error(listed.error().code, "cannot read " + options_.prefix + ": " +
                                                              listed.error().message));
        return;
    }
    std::vector<LockEvent> events;
    {
        std::lock_guard lock(mutex_);
        // Checked in the same hold of mutex_ that loads the table: a stop() cannot slip in
        // between the check and the change.
        if (!current(generation))
            return;
        const std::vector<mvccpb::KeyValue> kvs = takeKeyValues(*listed->mutable_kvs());
        const int64_t revision = listed->header().revision();
        events = table_.load(kvs, revision, std::chrono::system_clock::now());
        changes_.changedAll();
        if (options_.prepareFullCopy)
            prepared_ = PreparedCopy{changes_.stamp(), table_.locks(), table_.anomalies()};
        live_ = true;
        status_.clear();
        backoff_ = std::chrono::milliseconds(0);
        failures_ = 0;
    }
    watchFrom(generation, listed->header().revision() + 1);
    record(generation, std::move(events));
}

void LockMonitor::watchFrom(uint64_t generation, int64_t revision) {
    pb::WatchCreateRequest request;
    request.set_key(options_.prefix);
    request.set_range_end(prefixRangeEnd(options_.prefix));
    request.set_start_revision(revision);
    request.set_prev_kv(true);
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
        for (const auto& event : response.events()) {
            if (event.type() == mvccpb::Event::DELETE && event.has_prev_kv()) {
                // A key whose lease has run out was deleted by expiry, not released. The
                // countdown only reaches zero for a lease nobody renewed: leases are looked up
                // again before theirs runs low (tickLeases).
                auto lease = leases_.find(event.prev_kv().lease());
                if (lease != leases_.end() && lease->second.remainingAt(steadyNow) <= 0 &&
                    table_.setLeaseExpired(lease->first, true))
                    changedLocksOf(lease->first); // its keys elsewhere are anomalies now
            }
            auto applied = table_.apply(event, event.kv().mod_revision(), now);
            changes_.changed(LockTable::lockNameOf(event.kv().key()));
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
            live_ = false;
            status_ = "re-reading after compaction";
        }
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
        live_ = false;
        status_ = error.message;
        backoff_ = std::clamp(backoff_ * 2, minBackoff, maxBackoff);
        retry.delay = backoff_;
        retry.attempt = ++failures_;
    }
    if (retryListener_)
        retryListener_(retry);
    if (listener_)
        listener_({});
    const auto delay = retry.delay;
    client_.schedule(delay, weakCallback(this, &LockMonitor::list, generation));
}

void LockMonitor::changedLocksOf(int64_t lease) {
    for (const auto& [name, queue] : table_.locks())
        if (std::any_of(queue.keys.begin(), queue.keys.end(),
                        [lease](const LockKey& key) { return key.lease == lease; }))
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
    if (listener_)
        listener_(events);
}

void LockMonitor::tickLeases(uint64_t generation) {
    std::vector<int64_t> due;
    {
        std::lock_guard lock(mutex_);
        if (!current(generation)) // stopped, or restarted: that start() ticks on its own
            return;
        // Holders first, then waiters by their place in line.
        std::vector<int64_t> wanted;
        std::size_t depth = 0;
        bool more = true;
        for (; more; ++depth) {
            more = false;
            for (const auto& [name, queue] : table_.locks()) {
                if (depth < queue.keys.size()) {
                    more = true;
                    if (queue.keys[depth].lease != 0)
                        wanted.push_back(queue.keys[depth].lease);
                }
            }
        }
        const std::set<int64_t> live(wanted.begin(), wanted.end());
        const std::size_t known = leases_.size();
        std::erase_if(leases_, [&](const auto& lease) { return !live.contains(lease.first); });
        if (leases_.size() != known)
            ++leasesStamp_;

        const auto now = std::chrono::steady_clock::now();
        int budget = std::max(1, options_.leaseLookupsPerSecond *
                                     static_cast<int>(leaseTick.count()) / 1000) -
                     leaseLookupsInFlight_;
        std::set<int64_t> picked;
        for (int64_t lease : wanted) {
            if (budget <= 0)
                break;
            auto known = leases_.find(lease);
            // Looked up again before its countdown runs low, so a live lease never appears
            // to have run out.
            const bool fresh =
                known != leases_.end() && (known->second.ttlSeconds < 0 ||
                                           (now - known->second.fetchedAt < options_.leaseRefresh &&
                                            known->second.remainingAt(now) > 1.5));
            if (fresh || !picked.insert(lease).second)
                continue;
            due.push_back(lease);
            --budget;
        }
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
                ttl.jumpedUp = known && reply->ttl() > ttl.remainingAt(now) + 1.0;
                ttl.ttlSeconds = reply->ttl();
                ttl.grantedTtlSeconds = reply->grantedttl();
                ttl.fetchedAt = now;
                // A copy counting down from the last look still shows what this one says unless
                // the lease was renewed, granted anew or has gone: no news, no copy.
                if (!known || ttl.jumpedUp != before.jumpedUp ||
                    ttl.grantedTtlSeconds != before.grantedTtlSeconds ||
                    (ttl.ttlSeconds < 0) != (before.ttlSeconds < 0) ||
                    std::abs(ttl.remainingAt(now) - before.remainingAt(now)) >= 1.0)
                    ++self->leasesStamp_;
                if (self->table_.setLeaseExpired(lease, reply->ttl() < 0))
                    self->changedLocksOf(lease); // its keys are anomalies now, or no longer
            }
            if (self->listener_)
                self->listener_({});
        });
}

} // namespace etcd
