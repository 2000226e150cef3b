#pragma once

#include "etcdclient/client.h"
#include "etcdclient/detail/bidi_stream.h"
#include "etcdclient/detail/guarded_callbacks.h"
#include "etcdclient/detail/shared_watches.h"

#include <chrono>
#include <deque>
#include <map>
#include <optional>

namespace etcd::detail {

class Core;

struct Watcher {
    Watcher(pb::WatchCreateRequest r, WatchCallbacks c)
        : request(std::move(r))
        , callbacks(std::move(c))
        , nextRevision(request.start_revision()) {}
    const pb::WatchCreateRequest request;
    GuardedCallbacks<WatchCallbacks> callbacks;
    int64_t watchId = -1;   // queue thread only
    bool cancelled = false; // queue thread only
    // Where a re-created watch starts so that nothing delivered is repeated and nothing is
    // missed: the revision after the last one delivered; 0 until known ("from now").
    int64_t nextRevision;          // queue thread only
    bool createdDelivered = false; // the user sees one created response, however often re-created
    bool authRetried = false;      // refused once already: a fresh token did not help
    bool shared = false;           // a user of a SharedWatches server watch, not one itself
};

// Multiplexes every watch of a client on one Watch stream. The server answers create requests
// in the order they were sent, which is how a watcher learns its id. A stream that breaks, is
// refused for a stale token, or stops answering (a hung member) is replaced, on the next member
// when the old one failed, and every watch on it is re-created from its next revision: users
// see an end only for a real one (compacted, cancelled by the server, permission denied, auth
// failed, or no member carrying the watch for the command timeout). Queue thread only.
class WatchHub {
public:
    explicit WatchHub(Core& core)
        : core_(core) {}

    // A watcher marked `shared` joins the server watch of its keys (see SharedWatches).
    void add(std::shared_ptr<Watcher> watcher);
    void cancel(const std::shared_ptr<Watcher>& watcher);
    void requestProgress();
    void shutdown();

    static void deliver(Watcher& watcher, const pb::WatchResponse& response);
    static void end(Watcher& watcher, const Error& error);

private:
    using Stream = BidiStream<pb::WatchRequest, pb::WatchResponse>;
    using Clock = std::chrono::steady_clock;

    void open();
    void openFailed(const Error& error);
    // Re-creates the watches on a new stream after `delay`, or ends them when no stream has
    // answered for the dial timeout.
    void retry(const Error& error, std::chrono::milliseconds delay);
    void sendCreates();
    void sendCancel(int64_t watchId);
    void sendProgressRequest();
    void onResponse(const pb::WatchResponse& response);
    void onCreated(const pb::WatchResponse& response);
    void onClosed(const grpc::Status& status);
    // Ends the current stream on purpose; onClosed then re-creates its watches on a new one.
    void replaceStream();
    // Moves every live watch back to unsent_ and opens a new stream after `delay`.
    void resumeAfter(std::chrono::milliseconds delay);
    void checkLiveness();
    void armTicker();
    void endAll(const Error& error);

    Core& core_;
    SharedWatches shared_{core_, *this};
    Stream* stream_ = nullptr;
    std::string token_; // the one the current stream was opened with
    std::size_t member_ = 0;
    bool opening_ = false;
    bool reopenScheduled_ = false;
    bool replacing_ = false;    // the current stream was cancelled by replaceStream()
    bool answered_ = false;     // the current stream has delivered a response
    bool answeredOnce_ = false; // some stream has
    bool tickerArmed_ = false;
    int failedOpens_ = 0; // streams in a row that died before their first response
    std::optional<Clock::time_point> brokenSince_; // no stream has answered since
    Clock::time_point lastHeard_{};
    std::optional<Clock::time_point> probeSentAt_; // an unanswered progress request of ours
    Clock::time_point lastProbe_{};
    int userProgressRequests_ = 0; // progress answers owed to users; ours are not delivered
    std::deque<std::shared_ptr<Watcher>> unsent_;
    std::deque<std::shared_ptr<Watcher>> awaitingCreated_;
    std::map<int64_t, std::shared_ptr<Watcher>> active_;
};

} // namespace etcd::detail
