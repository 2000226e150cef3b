#pragma once

#include "etcdclient/client.h"
#include "etcdclient/detail/bidi_stream.h"
#include "etcdclient/detail/keepalive_hub.h"
#include "etcdclient/detail/tag.h"
#include "etcdclient/detail/watch_hub.h"
#include "etcdclient/endpoint.h"
#include "rpc.grpc.pb.h"
#include "v3lock.grpc.pb.h"

#include <atomic>
#include <grpcpp/alarm.h>
#include <grpcpp/grpcpp.h>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace etcd::detail {

// One cluster member's channel and stubs.
struct Member {
    Endpoint endpoint;
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<pb::KV::Stub> kv;
    std::unique_ptr<pb::Watch::Stub> watch;
    std::unique_ptr<pb::Lease::Stub> lease;
    std::unique_ptr<pb::Cluster::Stub> cluster;
    std::unique_ptr<pb::Maintenance::Stub> maintenance;
    std::unique_ptr<pb::Auth::Stub> auth;
    std::unique_ptr<v3lockpb::Lock::Stub> lock;
    // What the last connection probe found, and the failures waiting for the one running
    // (queue thread only; see Core::explainFailure).
    Error probeFinding;
    std::chrono::steady_clock::time_point probedAt;
    bool probing = false;
    std::vector<std::function<void(const Error& finding)>> probeWaiters;
    // A call to this member succeeded once (queue thread only): it speaks gRPC with our
    // credentials, so a later vague failure is a hang or a restart, not a TLS mistake.
    bool answered = false;
};

// When a failed call may be sent again to another member.
enum class Retry {
    Always,     // reads, and writes whose repeat changes nothing (revoke, guarded delete)
    UnsentOnly, // other writes: only when the channel was not connected, so the call never left;
                // given up early when its member is found hung meanwhile
    Waiting,    // a call that waits on the server (v3lock's Lock): as UnsentOnly, never cut short
};

// A unary call in flight; the core cancels them all at shutdown.
struct Call : Tag {
    virtual void cancel() = 0;
};

struct TimerTask;

// How a CallCanceller reaches a call in flight: the call registers each attempt's context here.
struct CancelSignal {
    void cancel();
    // false (nothing registered) once cancelled: the attempt must not start.
    bool attach(grpc::ClientContext* context);
    void detach();
    bool cancelled();

private:
    std::mutex mutex_;
    bool cancelled_ = false;
    grpc::ClientContext* context_ = nullptr;
};

// The client's engine: channels, the completion queue and the one thread that drains it,
// authentication, and the registries that let shutdown cancel everything.
class Core {
public:
    static Result<std::shared_ptr<Core>> create(ClientOptions options);
    explicit Core(ClientOptions options);
    ~Core();

    void shutdown();

    const ClientOptions& options() const { return options_; }
    LatencyRecorder& latency() { return latency_; }
    grpc::CompletionQueue* queue() { return &queue_; }
    bool onQueueThread() const { return std::this_thread::get_id() == thread_.get_id(); }
    bool stopping() const;

    std::size_t memberCount() const { return members_.size(); }
    std::size_t preferredMember() const { return preferred_.load(); }
    Member& member(std::size_t index) { return members_[index]; }
    // The Error for a failed call to member `index` that tried to `access` keys (a phrase such
    // as "read keys ['/a', '/b')", for permission errors), given to `then`. Where gRPC's text
    // hides why a connection failed, probes the member on a thread of its own (a name lookup
    // has no timeout) and names the cause; `then` runs when the probe ends. On the queue thread
    // only; `then` runs there too.
    void explainFailure(const grpc::Status& status, std::size_t index, const std::string& access,
                        std::function<void(Error)> then);
    // The same without waiting: what is known now. A probe it starts explains later failures.
    Error explainFailureNow(const grpc::Status& status, std::size_t index,
                            const std::string& access);
    // After a member failed to answer, calls go to the next one.
    void markUnavailable(std::size_t index);
    // How long one attempt of a call that can be resent waits for a member before trying the
    // next: a stopped (not dead) member keeps its connection open and never answers.
    std::chrono::milliseconds attemptTimeout() const;

    template <class StubT, class Req, class Resp>
    using Prepare = std::unique_ptr<grpc::ClientAsyncResponseReader<Resp>> (StubT::*)(
        grpc::ClientContext*, const Req&, grpc::CompletionQueue*);

    template <class StubT, class Req, class Resp>
    void unary(const char* method, Retry retry, std::unique_ptr<StubT> Member::*stub,
               Prepare<StubT, Req, Resp> prepare, Req request, Callback<Resp> done,
               std::chrono::milliseconds timeout = std::chrono::milliseconds(0),
               std::optional<std::size_t> onlyMember = std::nullopt,
               std::shared_ptr<CancelSignal> cancelSignal = nullptr);

    // Calls `fn` with the auth token ("" without auth), authenticating first when needed;
    // with an Error when authentication failed or the client is stopping.
    using TokenWaiter = std::function<void(const Error*, const std::string& token)>;
    void withToken(TokenWaiter fn);
    void forgetToken(const std::string& token);
    bool authConfigured() const { return !options_.username.empty(); }

    // Registers `call` and runs `start` (which issues its gRPC operations) unless stopping.
    bool startCall(Call* call, const std::function<void()>& start);
    void endCall(Call* call);

    template <class Req, class Resp>
    BidiStream<Req, Resp>* openStream(const std::string& token,
                                      const typename BidiStream<Req, Resp>::Opener& open,
                                      typename BidiStream<Req, Resp>::Handlers handlers);

    bool schedule(std::chrono::milliseconds delay, std::function<void()> task);
    void timerFired(TimerTask* timer, bool ok);

    WatchHub& watches() { return watches_; }
    KeepAliveHub& keepAlives() { return keepAlives_; }

private:
    void run();
    void streamFinalized();
    void maybeShutdownQueue();
    // The Error gRPC's status gives for a call to member `index`, and whether a probe of that
    // member may name the cause better: only for a member that never answered (one that did is
    // hung or restarting) and a failure gRPC words vaguely.
    struct StatusExplanation {
        Error error;
        bool probeMayTellMore = false;
    };
    StatusExplanation explainStatus(const grpc::Status& status, std::size_t index,
                                    const std::string& access) const;
    // Starts a probe of member `index` unless one runs or a recent finding stands.
    void probeIfStale(std::size_t index);
    void probeFinished(std::size_t index, const Error& finding);
    // At shutdown: failures waiting for a probe are given without its finding.
    void releaseProbeWaiters();

    const ClientOptions options_;
    LatencyRecorder latency_;
    std::vector<Member> members_;
    std::atomic<std::size_t> preferred_{0};
    grpc::CompletionQueue queue_;

    mutable std::mutex mutex_; // guards everything below
    bool stopping_ = false;
    bool queueShutDown_ = false;
    std::set<Call*> calls_;
    std::set<TimerTask*> timers_;
    int liveStreams_ = 0;
    std::string token_;
    // The server answered that auth is off: go on without a token, as etcdctl does, until a
    // call is refused for the lack of one (auth was enabled meanwhile).
    bool authNotEnabled_ = false;
    bool authenticating_ = false;
    std::vector<TokenWaiter> tokenWaiters_;

    WatchHub watches_{*this};
    KeepAliveHub keepAlives_{*this};
    // How a probe's thread, which may outlive the Core (a lookup cannot be cancelled), hands
    // its finding back: `core` is null once the Core is shutting down.
    struct ProbeLink {
        std::mutex mutex;
        Core* core = nullptr;
    };
    const std::shared_ptr<ProbeLink> probeLink_ = std::make_shared<ProbeLink>();
    std::thread thread_;
};

struct TimerTask final : Tag {
    TimerTask(Core& c, std::function<void()> t, bool always = false)
        : core(c)
        , task(std::move(t))
        , runWhileStopping(always) {}
    void proceed(bool ok) override { core.timerFired(this, ok); }
    Core& core;
    grpc::Alarm alarm;
    std::function<void()> task;
    bool runWhileStopping;
};

template <class Req, class Resp>
BidiStream<Req, Resp>* Core::openStream(const std::string& token,
                                        const typename BidiStream<Req, Resp>::Opener& open,
                                        typename BidiStream<Req, Resp>::Handlers handlers) {
    std::lock_guard lock(mutex_);
    if (stopping_)
        return nullptr;
    ++liveStreams_;
    auto context = std::make_unique<grpc::ClientContext>();
    if (!token.empty())
        context->AddMetadata("token", token);
    return new BidiStream<Req, Resp>(&queue_, std::move(context), open, std::move(handlers),
                                     [this] { streamFinalized(); });
}

} // namespace etcd::detail
