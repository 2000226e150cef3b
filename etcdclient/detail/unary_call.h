#pragma once

#include "etcdclient/detail/core.h"
#include "etcdclient/detail/request_access.h"

#include <type_traits>

namespace etcd::detail {

inline constexpr std::chrono::milliseconds hangCheckInterval{250};

// One unary RPC: authenticates when needed, retries on another member when that is safe,
// records its round trip, and hands the result to the caller's callback exactly once.
template <class Req, class Resp> class UnaryCall final : public Call {
public:
    using Starter = std::function<std::unique_ptr<grpc::ClientAsyncResponseReader<Resp>>(
        Member&, grpc::ClientContext*, const Req&, grpc::CompletionQueue*)>;

    // `onlyMember`: to that member alone, never failed over (a per-member view).
    UnaryCall(Core& core, const char* method, Retry retry, bool needsAuth, Starter starter,
              Req request, Callback<Resp> done, std::chrono::steady_clock::time_point deadline,
              std::optional<std::size_t> onlyMember, std::shared_ptr<CancelSignal> cancelSignal)
        : core_(core)
        , method_(method)
        , retry_(retry)
        , needsAuth_(needsAuth)
        , starter_(std::move(starter))
        , request_(std::move(request))
        , done_(std::move(done))
        , deadline_(deadline)
        , startedAt_(std::chrono::steady_clock::now())
        , onlyMember_(onlyMember)
        , cancelSignal_(std::move(cancelSignal)) {}

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

    // A write that cannot be resent still must not wait out the whole deadline on a member that
    // stopped answering (SIGSTOP keeps its connections open): once another call or stream of
    // this client gave up on that member, this one is given up too, its outcome unknown.
    void watchForHang(int attempt, std::chrono::milliseconds delay) {
        if (!self_)
            self_ = std::make_shared<UnaryCall*>(this);
        std::weak_ptr<UnaryCall*> weak = self_;
        core_.schedule(delay, [weak, attempt] {
            if (auto call = weak.lock())
                (*call)->checkHung(attempt);
        });
    }
    void checkHung(int attempt) {
        if (attempt != attempts_ || !inFlight_)
            return;
        if (core_.preferredMember() != member_) {
            abandoned_ = true; // markUnavailable(member_) ran since this attempt began
            context_->TryCancel();
        } else if (std::chrono::steady_clock::now() + hangCheckInterval < deadline_) {
            watchForHang(attempt, hangCheckInterval);
        }
    }

    void proceed(bool) override {
        core_.endCall(this);
        inFlight_ = false;
        if (cancelSignal_)
            cancelSignal_->detach(); // before context_ goes with a next attempt or the call
        if (!status_.ok() && cancelSignal_ && cancelSignal_->cancelled()) {
            complete(Error(ErrorCode::Cancelled, std::string(method_) + " was cancelled"));
            return;
        }
        if (status_.ok()) {
            core_.member(member_).answered = true;
            complete(std::move(response_));
            return;
        }
        const std::string& target = core_.member(member_).endpoint.target;
        if (abandoned_) {
            complete(Error(ErrorCode::DeadlineExceeded,
                           std::string(method_) + " got no answer from " + target +
                               ", which stopped answering this client's other calls too; it "
                               "may or may not have been applied"));
            return;
        }
        core_.explainFailure(status_, member_, accessPhrase(request_, method_),
                             [this](Error error) { failed(std::move(error)); });
    }

private:
    // After an attempt failed with `error`: authenticate again, fail over, or give up.
    void failed(Error error) {
        if (error.code == ErrorCode::Unauthenticated && needsAuth_ && !reauthenticated_ &&
            core_.authConfigured()) {
            reauthenticated_ = true; // the token expired: get a new one and try once more
            core_.forgetToken(token_);
            begin();
            return;
        }
        // A member that hung past this attempt's share of the deadline is treated as down.
        const bool attemptTimedOut =
            error.code == ErrorCode::DeadlineExceeded && attemptDeadline_ < deadline_;
        if (isConnectionFailure(error.code) || attemptTimedOut) {
            core_.markUnavailable(member_);
            const bool safe = retry_ == Retry::Always || !channelWasReady_;
            if (safe && !onlyMember_ && ++failovers_ < core_.memberCount() &&
                std::chrono::steady_clock::now() < deadline_) {
                begin();
                return;
            }
        }
        complete(std::move(error));
    }

    void attempt(const std::string& token) {
        token_ = token;
        member_ = onlyMember_.value_or(core_.preferredMember());
        Member& member = core_.member(member_);
        context_ = std::make_unique<grpc::ClientContext>();
        // A call that may go to another member gets only a share of the deadline here, unless
        // no member is left to try.
        const auto now = std::chrono::steady_clock::now();
        const bool canResend =
            retry_ == Retry::Always && !onlyMember_ && failovers_ + 1 < core_.memberCount();
        attemptDeadline_ =
            canResend ? std::min(deadline_, now + core_.attemptTimeout()) : deadline_;
        // gRPC takes system_clock deadlines; ours is steady so a clock step cannot stretch it.
        context_->set_deadline(std::chrono::system_clock::now() + (attemptDeadline_ - now));
        if (!token.empty())
            context_->AddMetadata("token", token);
        channelWasReady_ = member.channel->GetState(false) == GRPC_CHANNEL_READY;
        ++attempts_;
        if (retry_ == Retry::UnsentOnly && core_.memberCount() > 1)
            watchForHang(attempts_, core_.attemptTimeout());
        response_.Clear();
        status_ = grpc::Status();
        if (cancelSignal_ && !cancelSignal_->attach(context_.get())) {
            complete(Error(ErrorCode::Cancelled, std::string(method_) + " was cancelled"));
            return;
        }
        const bool started = core_.startCall(this, [&] {
            reader_ = starter_(member, context_.get(), request_, core_.queue());
            reader_->StartCall();
            handOver(this);
            reader_->Finish(&response_, &status_, this);
            inFlight_ = true;
        });
        if (!started) {
            if (cancelSignal_)
                cancelSignal_->detach();
            complete(Error(ErrorCode::Cancelled, "the client is shutting down"));
        }
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
    const std::optional<std::size_t> onlyMember_;
    const std::shared_ptr<CancelSignal> cancelSignal_; // a CallCanceller's, when it has one
    std::chrono::steady_clock::time_point attemptDeadline_;

    std::unique_ptr<grpc::ClientContext> context_;
    std::unique_ptr<grpc::ClientAsyncResponseReader<Resp>> reader_;
    Resp response_;
    grpc::Status status_;
    std::string token_;
    std::size_t member_ = 0;
    std::size_t failovers_ = 0;
    int attempts_ = 0;
    std::shared_ptr<UnaryCall*> self_; // what a hang check finds while the call lives
    bool abandoned_ = false;           // given up by checkHung
    bool inFlight_ = false;
    bool channelWasReady_ = false;
    bool reauthenticated_ = false;
};

template <class StubT, class Req, class Resp>
void Core::unary(const char* method, Retry retry, std::unique_ptr<StubT> Member::*stub,
                 Prepare<StubT, Req, Resp> prepare, Req request, Callback<Resp> done,
                 std::chrono::milliseconds timeout, std::optional<std::size_t> onlyMember,
                 std::shared_ptr<CancelSignal> cancelSignal) {
    if (timeout.count() <= 0)
        timeout = options_.commandTimeout;
    constexpr bool needsAuth = !std::is_same_v<StubT, pb::Auth::Stub>;
    auto starter = [stub, prepare](Member& m, grpc::ClientContext* context, const Req& req,
                                   grpc::CompletionQueue* cq) {
        return ((*(m.*stub)).*prepare)(context, req, cq);
    };
    auto* call = new UnaryCall<Req, Resp>(
        *this, method, retry, needsAuth, std::move(starter), std::move(request), std::move(done),
        std::chrono::steady_clock::now() + timeout, onlyMember, std::move(cancelSignal));
    call->begin();
}

} // namespace etcd::detail
