#pragma once

#include "etcdclient/client.h"
#include "etcdclient/detail/bidi_stream.h"
#include "etcdclient/detail/guarded_callbacks.h"

#include <chrono>
#include <deque>
#include <map>

namespace etcd::detail {

class Core;

struct KeepAliveEntry {
    KeepAliveEntry(int64_t id, int64_t ttl, KeepAliveCallbacks c)
        : leaseId(id)
        , ttlSeconds(ttl)
        , callbacks(std::move(c)) {}
    const int64_t leaseId;
    int64_t ttlSeconds;                                           // queue thread only
    std::chrono::steady_clock::time_point nextSend{};             // queue thread only
    std::deque<std::chrono::steady_clock::time_point> unanswered; // send times, oldest first
    GuardedCallbacks<KeepAliveCallbacks> callbacks;
};

// Keeps every registered lease alive over one LeaseKeepAlive stream: a request per lease every
// TTL/6, driven by one ticker. A broken stream is reopened on the next member with backoff, one
// that leaves a request unanswered for TTL/3 is replaced on the next member at once, and one
// refused for a stale token is reopened with a new one; the leases' owners notice only through
// late answers. Queue thread only.
class KeepAliveHub {
public:
    explicit KeepAliveHub(Core& core)
        : core_(core) {}

    void add(std::shared_ptr<KeepAliveEntry> entry);
    void cancel(const std::shared_ptr<KeepAliveEntry>& entry);
    void shutdown();

private:
    using Stream = BidiStream<pb::LeaseKeepAliveRequest, pb::LeaseKeepAliveResponse>;

    void tick();
    bool unanswered() const; // some request has waited longer than its lease's patience
    // How long a request may go unanswered before the stream moves on (TTL/3, at least 0.5 s).
    static std::chrono::milliseconds patience(const KeepAliveEntry& entry);
    static std::chrono::milliseconds sendInterval(const KeepAliveEntry& entry);
    void replaceStream();
    void armTicker();
    void open();
    void sendDue();
    void onResponse(const pb::LeaseKeepAliveResponse& response);
    void onClosed(const grpc::Status& status);
    void endAll(const Error& error);
    static void end(KeepAliveEntry& entry, const Error& error);

    Core& core_;
    Stream* stream_ = nullptr;
    std::string token_; // the one the current stream was opened with
    std::size_t member_ = 0;
    bool opening_ = false;
    bool replacing_ = false; // the current stream was cancelled by replaceStream()
    bool tickerArmed_ = false;
    std::chrono::milliseconds backoff_{0};
    std::chrono::steady_clock::time_point reopenAt_{};
    std::map<int64_t, std::shared_ptr<KeepAliveEntry>> entries_;
};

} // namespace etcd::detail
