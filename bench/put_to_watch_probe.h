#pragma once

#include "etcdclient/client.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace lockscope::bench {

// etcd's floor for a handoff: one watcher on one key, and each sample() times a put from its
// issue to its watch event. Samples are taken between handoffs, so both see the same noise.
class PutToWatchProbe {
public:
    PutToWatchProbe(etcd::Client& client, std::string key);
    std::chrono::steady_clock::duration sample();

private:
    etcd::Client& client_;
    const std::string key_;
    std::mutex mutex_;
    std::condition_variable seen_;
    int64_t lastRevision_ = 0;
    bool created_ = false;
    etcd::WatchHandle watch_;
};

} // namespace lockscope::bench
