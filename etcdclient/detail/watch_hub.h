#pragma once

#include "etcdclient/client.h"
#include "etcdclient/detail/bidi_stream.h"
#include "etcdclient/detail/guarded_callbacks.h"

#include <deque>
#include <map>

namespace etcd::detail {

class Core;

struct Watcher {
    Watcher(pb::WatchCreateRequest r, WatchCallbacks c)
        : request(std::move(r))
        , callbacks(std::move(c)) {}
    const pb::WatchCreateRequest request;
    GuardedCallbacks<WatchCallbacks> callbacks;
    int64_t watchId = -1;   // queue thread only
    bool cancelled = false; // queue thread only
};

// Multiplexes every watch of a client on one Watch stream. The server answers create requests
// in the order they were sent, which is how a watcher learns its id. Queue thread only.
class WatchHub {
public:
    explicit WatchHub(Core& core)
        : core_(core) {}

    void add(std::shared_ptr<Watcher> watcher);
    void cancel(const std::shared_ptr<Watcher>& watcher);
    void requestProgress();
    void shutdown();

private:
    using Stream = BidiStream<pb::WatchRequest, pb::WatchResponse>;

    void open();
    void sendCreates();
    void sendCancel(int64_t watchId);
    void onResponse(const pb::WatchResponse& response);
    void onClosed(const grpc::Status& status);
    void endAll(const Error& error);
    static void deliver(Watcher& watcher, const pb::WatchResponse& response);
    static void end(Watcher& watcher, const Error& error);

    Core& core_;
    Stream* stream_ = nullptr;
    std::size_t member_ = 0;
    bool opening_ = false;
    bool answered_ = false;       // the current stream has delivered a response
    std::size_t failedOpens_ = 0; // streams in a row that died before their first response
    std::deque<std::shared_ptr<Watcher>> unsent_;
    std::deque<std::shared_ptr<Watcher>> awaitingCreated_;
    std::map<int64_t, std::shared_ptr<Watcher>> active_;
};

} // namespace etcd::detail
