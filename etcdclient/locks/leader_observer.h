#pragma once

#include "etcdclient/client.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace etcd {

// Follows an election's leader as Go's Election.Observe (`etcdctl elect -l`) does: reports the
// leader when first seen, each proclaim of a new value, and each new leader when one resigns or
// expires; nothing while there is no candidate. It reads the candidates once, then watches
// their prefix from the next revision (re-reading only after a compaction), so no leader
// change between the two is missed.
// Thread-safe; callbacks run on the client's thread. The Client must outlive the observer.
class LeaderObserver : public std::enable_shared_from_this<LeaderObserver> {
public:
    struct Leader {
        std::string key;
        std::string proposal;
        int64_t createRevision = 0;
        int64_t modRevision = 0; // moves on with each proclaim
    };
    using LeaderListener = std::function<void(const Leader&)>;
    // Once, when observing stops by itself: the read or the watch failed for good.
    using EndListener = std::function<void(const Error&)>;

    static std::shared_ptr<LeaderObserver> create(Client& client, std::string name,
                                                  LeaderListener onLeader, EndListener onEnd);
    void start();
    // No callback comes after stop() returns, except one already running.
    void stop();

private:
    LeaderObserver(Client& client, std::string name, LeaderListener onLeader, EndListener onEnd);
    void read(uint64_t generation);
    void onRead(uint64_t generation, Result<pb::RangeResponse> reply);
    void onWatchResponse(uint64_t generation, const pb::WatchResponse& response);
    void onWatchEnd(uint64_t generation, const Error& error);
    // Reports the leader if it changed since the last report; returns with `lock` released.
    void reportLeader(std::unique_lock<std::mutex>& lock);
    void end(std::unique_lock<std::mutex>& lock, const Error& error);

    Client& client_;
    const std::string prefix_;
    const LeaderListener onLeader_;
    const EndListener onEnd_;

    std::mutex mutex_;
    uint64_t generation_ = 0;
    std::map<int64_t, Leader> candidates_;     // by create revision: the first one leads
    std::map<std::string, int64_t> revisions_; // key -> create revision
    std::optional<std::pair<std::string, int64_t>> reported_; // key, mod revision
    WatchHandle watch_;
};

} // namespace etcd
