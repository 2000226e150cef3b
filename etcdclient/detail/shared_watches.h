#pragma once

#include "etcdclient/client.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace etcd::detail {

class Core;
class WatchHub;
struct Watcher;

// Watches of one client on the same keys and filters, served by one server watch
// that outlives its last user for a while. etcd registers a new watch from the revision it read
// just before; a write landing in between leaves the watch to its catch-up pass, up to 100 ms
// later. A watch that already runs is synced: it delivers each event as it is committed.
//
// A user joining a running watch gets a created response whose header revision is the last one
// the watch delivered: every later event reaches the user. Queue thread only.
class SharedWatches {
public:
    SharedWatches(Core& core, WatchHub& hub)
        : core_(core)
        , hub_(hub) {}

    void add(std::shared_ptr<Watcher> user);
    void cancel(const std::shared_ptr<Watcher>& user);

    // How long a server watch is kept after its last user left.
    static constexpr std::chrono::seconds linger{30};

private:
    struct Shared {
        std::shared_ptr<Watcher> server;
        std::vector<std::shared_ptr<Watcher>> users;
        bool created = false;
        int64_t lastRevision = 0; // every later event has a higher revision
        uint64_t idleEpoch = 0;   // bumped when a user joins: a scheduled linger end is void
    };

    std::shared_ptr<Watcher> startServerWatch(const std::string& id,
                                              const pb::WatchCreateRequest& request);
    void onServerResponse(const std::string& id, const pb::WatchResponse& response);
    void onServerEnd(const std::string& id, const Error& error);
    void deliverCreated(Shared& shared, const pb::WatchResponse& created);
    void endWhenStillIdle(const std::string& id, uint64_t epoch);

    Core& core_;
    WatchHub& hub_;
    std::map<std::string, Shared> shared_; // by the serialized create request
};

} // namespace etcd::detail
