#include "etcdclient/locks/leader_observer.h"

#include "etcdclient/key_range.h"
#include "etcdclient/weak_callback.h"

namespace etcd {

std::shared_ptr<LeaderObserver> LeaderObserver::create(Client& client, std::string name,
                                                       LeaderListener onLeader, EndListener onEnd) {
    return std::shared_ptr<LeaderObserver>(
        new LeaderObserver(client, std::move(name), std::move(onLeader), std::move(onEnd)));
}

LeaderObserver::LeaderObserver(Client& client, std::string name, LeaderListener onLeader,
                               EndListener onEnd)
    : client_(client)
    , prefix_(std::move(name) + "/")
    , onLeader_(std::move(onLeader))
    , onEnd_(std::move(onEnd)) {}

void LeaderObserver::start() {
    uint64_t generation = 0;
    {
        std::lock_guard lock(mutex_);
        generation = ++generation_;
    }
    read(generation);
}

void LeaderObserver::stop() {
    WatchHandle watch;
    {
        std::lock_guard lock(mutex_);
        ++generation_;
        watch = std::move(watch_);
    }
    watch.cancel(); // outside mutex_: it waits for a running callback, which may wait for it
}

void LeaderObserver::read(uint64_t generation) {
    pb::RangeRequest request;
    request.set_key(prefix_);
    request.set_range_end(prefixRangeEnd(prefix_));
    client_.rangeAll(request, weakCallback(this, &LeaderObserver::onRead, generation));
}

void LeaderObserver::onRead(uint64_t generation, Result<pb::RangeResponse> reply) {
    std::unique_lock lock(mutex_);
    if (generation != generation_)
        return;
    if (!reply) {
        end(lock, reply.error());
        return;
    }
    candidates_.clear();
    revisions_.clear();
    for (const auto& kv : reply->kvs()) {
        candidates_[kv.create_revision()] =
            Leader{kv.key(), kv.value(), kv.create_revision(), kv.mod_revision()};
        revisions_[kv.key()] = kv.create_revision();
    }
    pb::WatchCreateRequest request;
    request.set_key(prefix_);
    request.set_range_end(prefixRangeEnd(prefix_));
    request.set_start_revision(reply->header().revision() + 1);
    WatchHandle handle =
        client_.watch(request, {weakCallback(this, &LeaderObserver::onWatchResponse, generation),
                                weakCallback(this, &LeaderObserver::onWatchEnd, generation)});
    std::swap(watch_, handle);
    lock.unlock();
    handle.cancel(); // the watch before a re-read, outside mutex_
    lock.lock();
    if (generation == generation_)
        reportLeader(lock);
}

void LeaderObserver::onWatchResponse(uint64_t generation, const pb::WatchResponse& response) {
    std::unique_lock lock(mutex_);
    if (generation != generation_)
        return;
    for (const auto& event : response.events()) {
        const auto& kv = event.kv();
        const auto known = revisions_.find(kv.key());
        if (event.type() == mvccpb::Event::DELETE) {
            if (known != revisions_.end()) {
                candidates_.erase(known->second);
                revisions_.erase(known);
            }
            continue;
        }
        candidates_[kv.create_revision()] =
            Leader{kv.key(), kv.value(), kv.create_revision(), kv.mod_revision()};
        revisions_[kv.key()] = kv.create_revision();
    }
    reportLeader(lock);
}

void LeaderObserver::onWatchEnd(uint64_t generation, const Error& error) {
    std::unique_lock lock(mutex_);
    if (generation != generation_)
        return;
    if (error.code == ErrorCode::Compacted) {
        lock.unlock();
        read(generation); // the history is gone: read the candidates again, watch from there
        return;
    }
    end(lock, error);
}

void LeaderObserver::reportLeader(std::unique_lock<std::mutex>& lock) {
    if (candidates_.empty()) {
        lock.unlock();
        return;
    }
    const Leader leader = candidates_.begin()->second;
    const std::pair<std::string, int64_t> seen{leader.key, leader.modRevision};
    if (reported_ == seen) {
        lock.unlock();
        return;
    }
    reported_ = seen;
    lock.unlock();
    onLeader_(leader);
}

void LeaderObserver::end(std::unique_lock<std::mutex>& lock, const Error& error) {
    ++generation_;
    WatchHandle watch = std::move(watch_);
    lock.unlock();
    watch.cancel();
    if (onEnd_)
        onEnd_(error);
}

} // namespace etcd
