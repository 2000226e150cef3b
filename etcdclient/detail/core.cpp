#include "etcdclient/detail/core.h"

#include "etcdclient/clock.h"
#include "etcdclient/connection_probe.h"
#include "etcdclient/detail/openssl_at_exit.h"
#include "etcdclient/detail/unary_call.h"
#include "etcdclient/tls_files.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace etcd::detail {

namespace {

std::shared_ptr<grpc::ChannelCredentials> credentials(const TlsFiles& files, bool tls) {
    if (!tls)
        return grpc::InsecureChannelCredentials();
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = files.caPem;
    ssl.pem_cert_chain = files.certPem;
    ssl.pem_private_key = files.keyPem;
    return grpc::SslCredentials(ssl);
}

grpc::ChannelArguments channelArguments(const ClientOptions& options) {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(options.maxReceiveBytes);
    // Reconnect fast after a member comes back, and bound a connection attempt by dialTimeout.
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, static_cast<int>(options.dialTimeout.count()));
    // Detect a dead connection under a quiet watch. etcd rejects pings more often than every
    // 5 s (GOAWAY too_many_pings), so ping every 10 s and only while streams are open.
    args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 10000);
    args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
    args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 0);
    args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
    return args;
}

} // namespace

Result<std::shared_ptr<Core>> Core::create(ClientOptions options) {
    if (options.endpoints.empty())
        return Error(ErrorCode::InvalidArgument, "no endpoint given; pass --endpoints host:port");
    if (options.commandTimeout.count() <= 0 || options.dialTimeout.count() <= 0)
        return Error(ErrorCode::InvalidArgument, "timeouts must be positive durations");
    keepOpenSslUntilExit();
    // Checked before dialling: gRPC would only say "empty address list" for a bad pair.
    const Result<TlsFiles> files = readTlsFiles(options);
    if (!files)
        return files.error();
    const bool tlsFilesGiven = !options.caFile.empty() || !options.certFile.empty();
    std::vector<Member> members;
    for (const auto& text : options.endpoints) {
        Member m;
        std::string problem;
        if (!parseEndpoint(text, m.endpoint, problem))
            return Error(ErrorCode::InvalidArgument, problem);
        m.endpoint.tls = m.endpoint.tls || tlsFilesGiven;
        const auto creds = credentials(*files, m.endpoint.tls);
        m.channel = grpc::CreateCustomChannel(m.endpoint.target, creds, channelArguments(options));
        m.kv = pb::KV::NewStub(m.channel);
        m.watch = pb::Watch::NewStub(m.channel);
        m.lease = pb::Lease::NewStub(m.channel);
        m.cluster = pb::Cluster::NewStub(m.channel);
        m.maintenance = pb::Maintenance::NewStub(m.channel);
        m.auth = pb::Auth::NewStub(m.channel);
        m.lock = v3lockpb::Lock::NewStub(m.channel);
        members.push_back(std::move(m));
    }
    auto core = std::make_shared<Core>(std::move(options));
    core->members_ = std::move(members);
    core->thread_ = std::thread([c = core.get()] { c->run(); });
    return core;
}

Core::Core(ClientOptions options)
    : options_(std::move(options)) {}

Core::~Core() {
    if (thread_.joinable())
        shutdown();
}

void Core::run() {
    void* tag = nullptr;
    bool ok = false;
    while (queue_.Next(&tag, &ok)) {
        takeOver(tag);
        static_cast<Tag*>(tag)->proceed(ok);
    }
}

bool Core::stopping() const {
    std::lock_guard lock(mutex_);
    return stopping_;
}

void Core::shutdown() {
    if (onQueueThread()) {
        std::fputs("etcdclient: a Client was destroyed from one of its own callbacks; "
                   "destroy it from another thread\n",
                   stderr);
        std::abort();
    }
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) {
            stopping_ = true;
            for (auto* timer : timers_)
                timer->alarm.Cancel();
            for (auto* call : calls_)
                call->cancel();
            // The hubs live on the queue thread: cancel their streams there.
            auto* teardown = new TimerTask(
                *this,
                [this] {
                    watches_.shutdown();
                    keepAlives_.shutdown();
                    maybeShutdownQueue();
                },
                true);
            handOver(teardown);
            teardown->alarm.Set(&queue_, gpr_now(GPR_CLOCK_MONOTONIC), teardown);
        }
    }
    if (thread_.joinable())
        thread_.join();
}

void Core::maybeShutdownQueue() {
    std::lock_guard lock(mutex_);
    if (stopping_ && liveStreams_ == 0 && !queueShutDown_) {
        queueShutDown_ = true;
        queue_.Shutdown();
    }
}

void Core::streamFinalized() {
    {
        std::lock_guard lock(mutex_);
        --liveStreams_;
    }
    maybeShutdownQueue();
}

Error Core::explainFailure(const grpc::Status& status, std::size_t index,
                           const std::string& access) {
    Member& m = members_[index];
    const Error error = errorFromStatus(status, m.endpoint.target);
    if (error.code == ErrorCode::PermissionDenied)
        return Error(error.code,
                     describeError(error.code, m.endpoint.target,
                                   "user '" + options_.username + "' may not " + access));
    if (!connectionFailedVaguely(status) || m.answered)
        return error;
    // The probe runs on the queue thread, so it is rare and short: only for a member that never
    // answered (a member that did is hung or restarting, and a blocked queue thread would hold
    // up every lease's keepalive), once every five seconds at most (calls failing together
    // share its finding), and bounded to 500 ms; a handshake takes milliseconds.
    const auto now = std::chrono::steady_clock::now();
    if (m.probedAt == std::chrono::steady_clock::time_point{} ||
        now - m.probedAt > std::chrono::seconds(5)) {
        const auto bound = std::min(options_.dialTimeout, std::chrono::milliseconds(500));
        m.probeFinding = probeConnection(m.endpoint, options_, bound);
        m.probedAt = now;
    }
    return m.probeFinding.ok() ? error : m.probeFinding;
}

void Core::markUnavailable(std::size_t index) {
    std::size_t expected = index;
    preferred_.compare_exchange_strong(expected, (index + 1) % members_.size());
}

std::chrono::milliseconds Core::attemptTimeout() const {
    const auto share = options_.commandTimeout / static_cast<long>(members_.size());
    return std::max(share, std::chrono::milliseconds(500));
}

void CancelSignal::cancel() {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    if (context_)
        context_->TryCancel();
}

bool CancelSignal::attach(grpc::ClientContext* context) {
    std::lock_guard lock(mutex_);
    if (cancelled_)
        return false;
    context_ = context;
    return true;
}

void CancelSignal::detach() {
    std::lock_guard lock(mutex_);
    context_ = nullptr;
}

bool CancelSignal::cancelled() {
    std::lock_guard lock(mutex_);
    return cancelled_;
}

bool Core::startCall(Call* call, const std::function<void()>& start) {
    std::lock_guard lock(mutex_);
    if (stopping_)
        return false;
    calls_.insert(call);
    start();
    return true;
}

void Core::endCall(Call* call) {
    std::lock_guard lock(mutex_);
    calls_.erase(call);
}

bool Core::schedule(std::chrono::milliseconds delay, std::function<void()> task) {
    std::lock_guard lock(mutex_);
    if (stopping_)
        return false;
    auto* timer = new TimerTask(*this, std::move(task));
    timers_.insert(timer);
    handOver(timer);
    // Saturated: a lease of etcd's longest TTL (9e9 s) asks for a check further out than a
    // nanosecond clock reaches.
    timer->alarm.Set(&queue_, saturatingAdd(std::chrono::system_clock::now(), delay), timer);
    return true;
}

void Core::timerFired(TimerTask* timer, bool ok) {
    bool run = false;
    {
        std::lock_guard lock(mutex_);
        timers_.erase(timer);
        run = timer->runWhileStopping || (ok && !stopping_);
    }
    if (run)
        timer->task();
    delete timer;
}

void Core::withToken(TokenWaiter fn) {
    std::unique_lock lock(mutex_);
    if (!authConfigured() || !token_.empty() || authNotEnabled_) {
        const std::string token = token_;
        lock.unlock();
        fn(nullptr, token);
        return;
    }
    if (stopping_) {
        lock.unlock();
        const Error error(ErrorCode::Cancelled, "the client is shutting down");
        fn(&error, "");
        return;
    }
    tokenWaiters_.push_back(std::move(fn));
    if (authenticating_)
        return;
    authenticating_ = true;
    lock.unlock();

    pb::AuthenticateRequest request;
    request.set_name(options_.username);
    request.set_password(options_.password);
    unary("Auth.Authenticate", Retry::Always, &Member::auth,
          &pb::Auth::Stub::PrepareAsyncAuthenticate, std::move(request),
          Callback<pb::AuthenticateResponse>([this](auto result) {
              std::vector<TokenWaiter> waiters;
              const bool notEnabled =
                  !result &&
                  result.error().message.find("authentication is not enabled") != std::string::npos;
              {
                  std::lock_guard relock(mutex_);
                  authenticating_ = false;
                  waiters.swap(tokenWaiters_);
                  if (result)
                      token_ = result->token();
                  authNotEnabled_ = notEnabled;
              }
              for (auto& waiter : waiters) {
                  if (notEnabled)
                      waiter(nullptr, "");
                  else if (result)
                      waiter(nullptr, result->token());
                  else
                      waiter(&result.error(), "");
              }
          }));
}

void Core::forgetToken(const std::string& token) {
    std::lock_guard lock(mutex_);
    if (token_ == token) {
        token_.clear();
        authNotEnabled_ = false;
    }
}

} // namespace etcd::detail
