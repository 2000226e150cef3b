#include "put_to_watch_probe.h"

#include <future>

namespace lockscope::bench {

PutToWatchProbe::PutToWatchProbe(etcd::Client& client, std::string key)
    : client_(client)
    , key_(std::move(key)) {
    etcd::pb::WatchCreateRequest w;
    w.set_key(key_);
    watch_ = client_.watch(w, {[this](const etcd::pb::WatchResponse& response) {
                                   std::lock_guard lock(mutex_);
                                   created_ = created_ || response.created();
                                   for (const auto& e : response.events())
                                       lastRevision_ = e.kv().mod_revision();
                                   seen_.notify_all();
                               },
                               nullptr});
    std::unique_lock lock(mutex_);
    seen_.wait(lock, [this] { return created_; });
}

std::chrono::steady_clock::duration PutToWatchProbe::sample() {
    etcd::pb::PutRequest p;
    p.set_key(key_);
    const auto start = std::chrono::steady_clock::now();
    std::promise<int64_t> put;
    client_.put(p, [&](auto r) { put.set_value(r ? r->header().revision() : -1); });
    const int64_t revision = put.get_future().get();
    std::unique_lock lock(mutex_);
    seen_.wait(lock, [&] { return lastRevision_ >= revision; });
    return std::chrono::steady_clock::now() - start;
}

} // namespace lockscope::bench
