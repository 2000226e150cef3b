#pragma once

#include "etcdclient/client_options.h"
#include "etcdclient/error.h"
#include "etcdclient/latency_recorder.h"
#include "etcdclient/result.h"
#include "rpc.pb.h"
#include "v3lock.pb.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace etcd {

namespace pb = ::etcdserverpb;

template <class T> using Callback = std::function<void(Result<T>)>;

namespace detail {
class Core;
struct CancelSignal;
struct Watcher;
struct KeepAliveEntry;
} // namespace detail

struct WatchCallbacks {
    // Every response but the last: the created confirmation, event batches (in revision order)
    // and progress notifications.
    std::function<void(const pb::WatchResponse&)> onResponse;
    // Once, when the watch ends by itself: Compacted (with compactRevision), WatchCanceled,
    // Unavailable when no member carried it for the command timeout (the dial timeout before
    // any stream worked), Cancelled when the client shuts down. A broken, refused (stale
    // token) or unanswered stream is not an end: the watch is re-created on a new stream from
    // the revision after the last one delivered.
    std::function<void(const Error&)> onEnd;
};

// Owns one watch. Destroying or cancelling it stops the callbacks at once and cancels the
// watch on the server.
class WatchHandle {
public:
    WatchHandle() = default;
    WatchHandle(WatchHandle&&) noexcept = default;
    WatchHandle& operator=(WatchHandle&& other) noexcept;
    ~WatchHandle();
    void cancel();

private:
    friend class Client;
    WatchHandle(std::weak_ptr<detail::Core> core, std::shared_ptr<detail::Watcher> watcher);
    std::weak_ptr<detail::Core> core_;
    std::shared_ptr<detail::Watcher> watcher_;
};

struct KeepAliveAnswer {
    int64_t ttlSeconds; // the renewed TTL
    // When the answered request was sent: the server renewed the lease no earlier, so the
    // lease lives at least until sentAt + ttlSeconds.
    std::chrono::steady_clock::time_point sentAt;
};

struct KeepAliveCallbacks {
    std::function<void(const KeepAliveAnswer&)> onAlive; // each keepalive answer
    // Once: LeaseNotFound when the lease expired or was revoked, Cancelled at client shutdown.
    std::function<void(const Error&)> onEnd;
};

// Keeps one lease alive (a request every TTL/6) until cancelled or destroyed. Cancelling stops
// the keepalives; it does not revoke the lease.
class KeepAliveHandle {
public:
    KeepAliveHandle() = default;
    KeepAliveHandle(KeepAliveHandle&&) noexcept = default;
    KeepAliveHandle& operator=(KeepAliveHandle&& other) noexcept;
    ~KeepAliveHandle();
    void cancel();

private:
    friend class Client;
    KeepAliveHandle(std::weak_ptr<detail::Core> core, std::shared_ptr<detail::KeepAliveEntry> e);
    std::weak_ptr<detail::Core> core_;
    std::shared_ptr<detail::KeepAliveEntry> entry_;
};

// Ends one call that waits on the server (lockWithin's) before it is answered: its callback gets
// Cancelled, and the server sees the call cancelled (as a Go client's cancelled context). Does
// nothing once the call has ended. Copies cancel the same call; any thread.
class CallCanceller {
public:
    CallCanceller() = default; // cancels nothing
    void cancel() const;

private:
    friend class Client;
    explicit CallCanceller(std::shared_ptr<detail::CancelSignal> signal);
    std::shared_ptr<detail::CancelSignal> signal_;
};

// An etcd v3 client. One thread owns a completion queue that carries every call and stream;
// callbacks run on that thread, so they must be quick and must not destroy the Client.
// Calls fail over to the next endpoint when one is unreachable (reads always; writes only when
// they cannot have reached the server). Destroying the Client cancels everything in flight,
// drains the queue and joins its thread; callbacks of cancelled calls get ErrorCode::Cancelled.
class Client {
public:
    // Fails with InvalidArgument for a malformed endpoint or an unreadable TLS file.
    static Result<std::unique_ptr<Client>> create(ClientOptions options);
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    const ClientOptions& options() const;
    LatencyRecorder& latency();
    std::string currentEndpoint() const;
    bool onClientThread() const;

    void range(pb::RangeRequest request, Callback<pb::RangeResponse> done);
    // A Range read in pages, the first of request.limit() keys (5000 when 0) and later ones
    // larger for a large range (nextPageLimit), all at the first page's revision, returned as
    // one response. For prefixes with far more keys than one message holds.
    void rangeAll(pb::RangeRequest request, Callback<pb::RangeResponse> done);
    // The same pages one at a time, as each arrives: each with the first page's header and the
    // range's count; more() is false on the last. Returning false reads no further (nor calls
    // again); an error ends the reading too.
    using PageCallback = std::function<bool(Result<pb::RangeResponse>)>;
    void rangePages(pb::RangeRequest request, PageCallback onPage);
    void put(pb::PutRequest request, Callback<pb::PutResponse> done);
    void deleteRange(pb::DeleteRangeRequest request, Callback<pb::DeleteRangeResponse> done);
    void txn(pb::TxnRequest request, Callback<pb::TxnResponse> done);
    // A Txn whose second application changes nothing (a delete guarded by create revision, a
    // put-if-absent): resent to the next member when one does not answer, even if it may have
    // been applied. A resent guarded delete that had landed answers succeeded=false.
    void idempotentTxn(pb::TxnRequest request, Callback<pb::TxnResponse> done);
    void leaseGrant(pb::LeaseGrantRequest request, Callback<pb::LeaseGrantResponse> done);
    void leaseRevoke(pb::LeaseRevokeRequest request, Callback<pb::LeaseRevokeResponse> done);
    void leaseTimeToLive(pb::LeaseTimeToLiveRequest request,
                         Callback<pb::LeaseTimeToLiveResponse> done);
    // As leaseTimeToLive, given up after `timeout` (the command timeout when 0): for a question
    // whose answer is useless after a moment, such as a lease deadline.
    void leaseTimeToLiveWithin(std::chrono::milliseconds timeout,
                               pb::LeaseTimeToLiveRequest request,
                               Callback<pb::LeaseTimeToLiveResponse> done);
    void leaseLeases(pb::LeaseLeasesRequest request, Callback<pb::LeaseLeasesResponse> done);
    void status(pb::StatusRequest request, Callback<pb::StatusResponse> done);
    // Status of one member (its index in options().endpoints), never failed over to another:
    // each member's own answer, for a per-member view.
    void statusOf(std::size_t member, pb::StatusRequest request, Callback<pb::StatusResponse> done);
    void memberList(pb::MemberListRequest request, Callback<pb::MemberListResponse> done);
    // etcd's alarms (Maintenance.Alarm): GET lists the raised ones (NOSPACE, CORRUPT) of every
    // member; DEACTIVATE disarms one, as `etcdctl alarm disarm` does.
    void alarms(pb::AlarmRequest request, Callback<pb::AlarmResponse> done);
    // etcd's v3lock service. Lock waits on the server until the lock is acquired: lock() gives
    // up after the command timeout, lockWithin() after `timeout` (or when cancelled).
    void lock(v3lockpb::LockRequest request, Callback<v3lockpb::LockResponse> done);
    CallCanceller lockWithin(std::chrono::milliseconds timeout, v3lockpb::LockRequest request,
                             Callback<v3lockpb::LockResponse> done);
    void unlock(v3lockpb::UnlockRequest request, Callback<v3lockpb::UnlockResponse> done);

    WatchHandle watch(pb::WatchCreateRequest request, WatchCallbacks callbacks);
    // A watch that shares one server watch with every other shared watch of this client on the
    // same keys and filters, kept for a while after the last one ends; start_revision counts
    // only when this call creates the server watch. A watch that runs already is synced in etcd: it
    // delivers each event as it commits, where a new one can wait for etcd's 100 ms catch-up pass.
    // Its created response's header revision is the last one the server watch delivered: every
    // event after it reaches this watch.
    WatchHandle sharedWatch(pb::WatchCreateRequest request, WatchCallbacks callbacks);
    // Asks the server to tell every watch the current revision (a response without events),
    // so a quiet watcher learns it is up to date.
    void requestWatchProgress();
    KeepAliveHandle keepAlive(int64_t leaseId, int64_t ttlSeconds, KeepAliveCallbacks callbacks);

    // Runs `task` on the client's thread after `delay`; dropped when the client shuts down.
    void schedule(std::chrono::milliseconds delay, std::function<void()> task);

private:
    explicit Client(std::shared_ptr<detail::Core> core);
    WatchHandle startWatch(std::shared_ptr<detail::Watcher> watcher);
    std::shared_ptr<detail::Core> core_;
};

} // namespace etcd
