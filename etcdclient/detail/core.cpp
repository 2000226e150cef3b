#include "etcdclient/detail/core.h"

#include "etcdclient/clock.h"
#include "etcdclient/connection_probe.h"
#include "etcdclient/detail/openssl_at_exit.h"
#include "etcdclient/detail/unary_call.h"
#include "etcdclient/tls_files.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

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
    : options_(std::move(options)) {
    probeLink_->core = this;
}

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
                    releaseProbeWaiters();
                    watches_.shutdown();
                    keepAlives_.shutdown();
                    maybeShutdownQueue();
                },
                true);
            handOver(teardown);
            teardown->alarm.Set(&queue_, gpr_now(GPR_CLOCK_MONOTONIC), teardown);
        }
    }
    {
        std::lock_guard lock(probeLink_->mutex);
        probeLink_->core = nullptr;
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

namespace {

// Calls failing together share a probe's finding for this long.
bool probedRecently(const Member& m) {
    return m.probedAt != std::chrono::steady_clock::time_point{} &&
           std::chrono::steady_clock::now() - m.probedAt <= std::chrono::seconds(5);
}

} // namespace

Core::StatusExplanation Core::explainStatus(const grpc::Status& status, std::size_t index,
                                            const std::string& access) const {
    const Member& m = members_[index];
    const Error error = errorFromStatus(status, m.endpoint.target);
    if (error.code == ErrorCode::PermissionDenied)
        return {
            Error(error.code, describeError(error.code, m.endpoint.target,
                                            "user '" + options_.username + "' may not " + access))};
    return {error, connectionFailedVaguely(status) && !m.answered};
}

void Core::explainFailure(const grpc::Status& status, std::size_t index, const std::string& access,
                          std::function<void(Error)> then) {
    auto [error, probeMayTellMore] = explainStatus(status, index, access);
    // Stopping: a probe's finding would not come back (releaseProbeWaiters has run or will).
    if (!probeMayTellMore || stopping()) {
        then(std::move(error));
        return;
    }
    Member& m = members_[index];
    if (!m.probing && probedRecently(m)) {
        then(m.probeFinding.ok() ? std::move(error) : m.probeFinding);
        return;
    }
    m.probeWaiters.push_back([error = std::move(error), then = std::move(then)](
                                 const Error& found) { then(found.ok() ? error : found); });
    probeIfStale(index);
}

Error Core::explainFailureNow(const grpc::Status& status, std::size_t index,
                              const std::string& access) {
    auto [error, probeMayTellMore] = explainStatus(status, index, access);
    if (!probeMayTellMore)
        return error;
    const Member& m = members_[index];
    const bool known = probedRecently(m) && !m.probeFinding.ok();
    probeIfStale(index);
    return known ? m.probeFinding : error;
}

void Core::probeIfStale(std::size_t index) {
    Member& m = members_[index];
    if (m.probing || probedRecently(m))
        return;
    m.probing = true;
    // Bounded (a handshake takes milliseconds), except the name lookup, which is why the probe
    // has a thread of its own: every lease's keepalive and every watch wait on the queue thread.
    const auto bound = std::min(options_.dialTimeout, std::chrono::milliseconds(500));
    std::thread([link = probeLink_, endpoint = m.endpoint, options = options_, bound, index] {
        const Error finding = probeConnection(endpoint, options, bound);
        std::lock_guard lock(link->mutex);
        if (Core* core = link->core)
            core->schedule(std::chrono::milliseconds(0),
                           [core, index, finding] { core->probeFinished(index, finding); });
    }).detach();
}

void Core::probeFinished(std::size_t index, const Error& finding) {
    Member& m = members_[index];
    m.probing = false;
    m.probeFinding = finding;
    m.probedAt = std::chrono::steady_clock::now();
    for (auto& waiter : std::exchange(m.probeWaiters, {}))
        waiter(finding);
}

void Core::releaseProbeWaiters() {
    for (Member& m : members_)
        for (auto& waiter : std::exchange(m.probeWaiters, {}))
            waiter(Error());
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
