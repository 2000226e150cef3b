#pragma once

#include "etcdclient/detail/core.h"

#include <type_traits>

namespace etcd::detail {

// One unary RPC: authenticates when needed, retries on another member when that is safe,
// records its round trip, and hands the result to the caller's callback exactly once.
template <class Req, class Resp> class UnaryCall final : public Call {
public:
    using Starter = std::function<std::unique_ptr<grpc::ClientAsyncResponseReader<Resp>>(
        Member&, grpc::ClientContext*, const Req&, grpc::CompletionQueue*)>;

    UnaryCall(Core& core, const char* method, Retry retry, bool needsAuth, Starter starter,
              Req request, Callback<Resp> done, std::chrono::steady_clock::time_point deadline)
        : core_(core)
        , method_(method)
        , retry_(retry)
        , needsAuth_(needsAuth)
        , starter_(std::move(starter))
        , request_(std::move(request))
        , done_(std::move(done))
        , deadline_(deadline)
        , startedAt_(std::chrono::steady_clock::now()) {}

    void begin() {
        if (!needsAuth_) {
            attempt("");
            return;
        }
        core_.withToken([this](const Error* error, const std::string& token) {
            if (error)
                complete(*error);
            else
                attempt(token);
        });
    }

    void cancel() override { context_->TryCancel(); }

    void proceed(bool) override {
        core_.endCall(this);
        if (status_.ok()) {
            complete(std::move(response_));
            return;
        }
        Error error = errorFromStatus(status_, core_.member(member_).endpoint.target);
        if (error.code == ErrorCode::Unauthenticated && needsAuth_ && !reauthenticated_ &&
            core_.authConfigured()) {
            reauthenticated_ = true; // the token expired: get a new one and try once more
            core_.forgetToken(token_);
            begin();
            return;
        }
        if (error.code == ErrorCode::Unavailable) {
            core_.markUnavailable(member_);
            const bool safe = retry_ == Retry::Always || !channelWasReady_;
            if (safe && ++failovers_ < core_.memberCount() &&
                std::chrono::steady_clock::now() < deadline_) {
                begin();
                return;
            }
        }
        complete(std::move(error));
    }

private:
    void attempt(const std::string& token) {
        token_ = token;
        member_ = core_.preferredMember();
        Member& member = core_.member(member_);
        context_ = std::make_unique<grpc::ClientContext>();
        // gRPC takes system_clock deadlines; ours is steady so a clock step cannot stretch it.
        context_->set_deadline(std::chrono::system_clock::now() +
                               (deadline_ - std::chrono::steady_clock::now()));
        if (!token.empty())
            context_->AddMetadata("token", token);
        channelWasReady_ = member.channel->GetState(false) == GRPC_CHANNEL_READY;
        response_.Clear();
        status_ = grpc::Status();
        const bool started = core_.startCall(this, [&] {
            reader_ = starter_(member, context_.get(), request_, core_.queue());
            reader_->StartCall();
            handOver(this);
            reader_->Finish(&response_, &status_, this);
        });
        if (!started)
            complete(Error(ErrorCode::Cancelled, "the client is shutting down"));
    }

    void complete(Result<Resp> result) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - startedAt_);
        core_.latency().record(method_, elapsed, result.ok());
        auto done = std::move(done_);
        delete this;
        if (done)
            done(std::move(result));
    }

    Core& core_;
    const char* method_;
    const Retry retry_;
    const bool needsAuth_;
    Starter starter_;
    Req request_;
    Callback<Resp> done_;
    const std::chrono::steady_clock::time_point deadline_;
    const std::chrono::steady_clock::time_point startedAt_;

    std::unique_ptr<grpc::ClientContext> context_;
    std::unique_ptr<grpc::ClientAsyncResponseReader<Resp>> reader_;
    Resp response_;
    grpc::Status status_;
    std::string token_;
    std::size_t member_ = 0;
    std::size_t failovers_ = 0;
    bool channelWasReady_ = false;
    bool reauthenticated_ = false;
};

template <class StubT, class Req, class Resp>
void Core::unary(const char* method, Retry retry, std::unique_ptr<StubT> Member::*stub,
                 Prepare<StubT, Req, Resp> prepare, Req request, Callback<Resp> done,
                 std::chrono::milliseconds timeout) {
    if (timeout.count() <= 0)
        timeout = options_.commandTimeout;
    constexpr bool needsAuth = !std::is_same_v<StubT, pb::Auth::Stub>;
    auto starter = [stub, prepare](Member& m, grpc::ClientContext* context, const Req& req,
                                   grpc::CompletionQueue* cq) {
        return ((*(m.*stub)).*prepare)(context, req, cq);
    };
    auto* call = new UnaryCall<Req, Resp>(*this, method, retry, needsAuth, std::move(starter),
                                          std::move(request), std::move(done),
                                          std::chrono::steady_clock::now() + timeout);
    call->begin();
}

} // namespace etcd::detail
