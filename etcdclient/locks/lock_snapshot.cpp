#include "etcdclient/locks/lock_snapshot.h"

#include "etcdclient/key_range.h"

#include <mutex>
#include <set>

namespace etcd {

namespace {

struct Reading {
    Reading(Client& c, std::function<void(Result<LockMonitorState>)> d, RecipeOverride recipe)
        : client(c)
        , done(std::move(d))
        , table(recipe) {}
    Client& client;
    std::function<void(Result<LockMonitorState>)> done;
    std::mutex mutex;
    LockMonitorState state;
    LockTable table;
    std::vector<int64_t> pending; // leases not yet asked for
    int inFlight = 0;
    bool loading = true; // the keys are not grouped into locks yet
    bool finished = false;
};

// Every answer is in and the keys are grouped: the state, to `done`.
void complete(const std::shared_ptr<Reading>& reading) {
    for (const auto& [lease, ttl] : reading->state.leases)
        reading->table.setLeaseExpired(lease, ttl.ttlSeconds < 0);
    reading->state.anomalies = reading->table.anomalies();
    reading->state.locks = reading->table.takeLocks(); // the table is done with
    reading->done(std::move(reading->state));
}

// Asks for the next lease's TTL; completes once nothing is pending, in flight or loading.
void lookUpNext(const std::shared_ptr<Reading>& reading) {
    int64_t lease = 0;
    {
        std::lock_guard lock(reading->mutex);
        if (reading->pending.empty()) {
            if (reading->inFlight > 0 || reading->loading || reading->finished)
                return;
            reading->finished = true;
        } else {
            lease = reading->pending.back();
            reading->pending.pop_back();
            ++reading->inFlight;
        }
    }
    if (lease == 0) {
        complete(reading);
        return;
    }
    pb::LeaseTimeToLiveRequest request;
    request.set_id(lease);
    reading->client.leaseTimeToLive(request, [reading, lease](auto reply) {
        {
            std::lock_guard lock(reading->mutex);
            --reading->inFlight;
            if (reply) {
                LeaseTtl& ttl = reading->state.leases[lease];
                ttl.ttlSeconds = reply->ttl();
                ttl.grantedTtlSeconds = reply->grantedttl();
                ttl.fetchedAt = std::chrono::steady_clock::now();
            }
        }
        lookUpNext(reading);
    });
}

} // namespace

void readLockSnapshot(Client& client, const std::string& prefix,
                      std::function<void(Result<LockMonitorState>)> done, RecipeOverride recipe,
                      int64_t revision, int parallelLookups) {
    auto reading = std::make_shared<Reading>(client, std::move(done), recipe);
    pb::RangeRequest request;
    request.set_key(prefix);
    request.set_range_end(prefixRangeEnd(prefix));
    request.set_revision(revision);
    // One read shows nothing until it is whole: as few round trips as a page allows.
    request.set_limit(MaxPageKeys);
    client.rangeAll(
        request, [reading, revision, parallelLookups](Result<pb::RangeResponse> listed) {
            if (!listed) {
                reading->done(listed.error());
                return;
            }
            const std::vector<mvccpb::KeyValue> kvs = takeKeyValues(*listed->mutable_kvs());
            const int64_t at = revision != 0 ? revision : listed->header().revision();
            // The leases are asked for first: their round trips pass while the keys are grouped
            // (their answers run on this thread, after).
            std::set<int64_t> leases;
            for (const auto& kv : kvs)
                if (kv.lease() != 0 && revision == 0) // a TTL now says nothing of then
                    leases.insert(kv.lease());
            {
                std::lock_guard lock(reading->mutex);
                reading->pending.assign(leases.begin(), leases.end());
            }
            const int starters = std::min<int>(parallelLookups, leases.size());
            for (int i = 0; i < starters; ++i)
                lookUpNext(reading);
            reading->table.load(kvs, at, std::chrono::system_clock::now());
            reading->state.revision = at;
            reading->state.live = true;
            {
                std::lock_guard lock(reading->mutex);
                reading->loading = false;
                if (!reading->pending.empty() || reading->inFlight > 0 || reading->finished)
                    return; // the last answer completes it
                reading->finished = true;
            }
            complete(reading);
        });
}

} // namespace etcd
