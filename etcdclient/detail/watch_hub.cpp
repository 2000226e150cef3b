#include "etcdclient/detail/watch_hub.h"

#include "etcdclient/detail/core.h"

#include <algorithm>

namespace etcd::detail {

namespace {

constexpr std::chrono::milliseconds tickInterval{250};
// A stream silent this long is asked for progress; one that leaves that unanswered for the
// core's attempt timeout is on a member that stopped answering.
constexpr std::chrono::milliseconds quietBeforeProbe{1000};
constexpr std::chrono::milliseconds probeInterval{500};
constexpr std::chrono::milliseconds maxReopenDelay{500};

Error cancelError(const pb::WatchResponse& response) {
    if (response.compact_revision() > 0) {
        return Error(ErrorCode::Compacted,
                     "compacted: etcd no longer keeps history before revision " +
                         std::to_string(response.compact_revision()) +
                         "; re-read the keys and watch from a newer revision",
                     response.compact_revision());
    }
    const std::string reason =
        response.cancel_reason().empty() ? "no reason given" : response.cancel_reason();
    return Error(ErrorCode::WatchCanceled, "watch canceled by the server: " + reason);
}

// etcd 3.4 refuses a watch whose stream carries a stale token as "permission denied", later
// versions say "invalid auth token": either may be cured by a fresh token.
bool mayBeStaleToken(const pb::WatchResponse& response) {
    const std::string& reason = response.cancel_reason();
    return reason.find("permission denied") != std::string::npos ||
           reason.find("auth token") != std::string::npos;
}

} // namespace

void WatchHub::add(std::shared_ptr<Watcher> watcher) {
    if (watcher->shared) {
        shared_.add(std::move(watcher));
        return;
    }
    unsent_.push_back(std::move(watcher));
    if (stream_)
        sendCreates();
    else if (!opening_ && !reopenScheduled_)
        open();
}

void WatchHub::open() {
    opening_ = true;
    core_.withToken([this](const Error* error, const std::string& token) {
        opening_ = false;
        if (error) {
            openFailed(*error);
            return;
        }
        token_ = token;
        member_ = core_.preferredMember();
        answered_ = false;
        lastHeard_ = Clock::now();
        probeSentAt_.reset();
        auto* stub = core_.member(member_).watch.get();
        stream_ = core_.openStream<pb::WatchRequest, pb::WatchResponse>(
            token,
            [stub](grpc::ClientContext* context, grpc::CompletionQueue* cq) {
                return stub->PrepareAsyncWatch(context, cq);
            },
            {[this](const pb::WatchResponse& r) { onResponse(r); },
             [this](const grpc::Status& s) { onClosed(s); }});
        if (!stream_) {
            endAll(Error(ErrorCode::Cancelled, "the client is shutting down"));
            return;
        }
        sendCreates();
        armTicker();
    });
}

void WatchHub::openFailed(const Error& error) {
    // A TLS or name failure is one member's when others are listed (onClosed moved calls off
    // it): try them, within the same patience, before believing it.
    const bool transient =
        isTransient(error.code) || (isConnectionFailure(error.code) && core_.memberCount() > 1);
    if (!transient || core_.stopping()) {
        endAll(error);
        return;
    }
    ++failedOpens_;
    retry(error, std::min(maxReopenDelay, std::chrono::milliseconds(100) * failedOpens_));
}

void WatchHub::retry(const Error& error, std::chrono::milliseconds delay) {
    if (!brokenSince_)
        brokenSince_ = Clock::now();
    // A client that never had a working stream is told within the dial timeout; watches that
    // ran are given the command timeout to come back (an etcd restart takes a second or two).
    const auto patience =
        answeredOnce_ ? core_.options().commandTimeout : core_.options().dialTimeout;
    if (Clock::now() - *brokenSince_ > patience)
        endAll(error); // no member carried the watches for that long: tell their owners
    else
        resumeAfter(delay);
}

void WatchHub::sendCreates() {
    for (auto& watcher : unsent_) {
        if (watcher->cancelled)
            continue;
        pb::WatchRequest request;
        auto* create = request.mutable_create_request();
        *create = watcher->request;
        create->set_start_revision(watcher->nextRevision);
        stream_->write(std::move(request));
        awaitingCreated_.push_back(std::move(watcher));
    }
    unsent_.clear();
}

void WatchHub::sendCancel(int64_t watchId) {
    pb::WatchRequest request;
    request.mutable_cancel_request()->set_watch_id(watchId);
    stream_->write(std::move(request));
}

void WatchHub::cancel(const std::shared_ptr<Watcher>& watcher) {
    if (watcher->shared) {
        shared_.cancel(watcher);
        return;
    }
    watcher->cancelled = true;
    // Not yet created: sendCreates skips it, or onResponse cancels it once its id is known.
    auto it = active_.find(watcher->watchId);
    if (stream_ && it != active_.end() && it->second == watcher)
        sendCancel(watcher->watchId);
}

void WatchHub::onResponse(const pb::WatchResponse& response) {
    answered_ = true;
    answeredOnce_ = true;
    failedOpens_ = 0;
    brokenSince_.reset();
    lastHeard_ = Clock::now();
    probeSentAt_.reset();
    if (response.created()) {
        onCreated(response);
        return;
    }
    const int64_t after = response.header().revision() + 1;
    if (response.watch_id() == -1 && !response.canceled()) {
        // A progress answer: every watch on the stream has seen everything up to its revision.
        for (auto& [id, watcher] : active_)
            watcher->nextRevision = std::max(watcher->nextRevision, after);
        if (userProgressRequests_ == 0)
            return; // the answer to one of our liveness probes
        --userProgressRequests_;
        for (auto& [id, watcher] : active_)
            if (!watcher->cancelled)
                deliver(*watcher, response);
        return;
    }
    auto it = active_.find(response.watch_id());
    if (it == active_.end())
        return;
    auto watcher = it->second;
    if (response.canceled()) {
        active_.erase(it);
        if (!watcher->cancelled)
            end(*watcher, cancelError(response));
        return;
    }
    const int events = response.events_size();
    watcher->nextRevision =
        std::max(watcher->nextRevision,
                 events > 0 ? response.events(events - 1).kv().mod_revision() + 1 : after);
    if (!watcher->cancelled)
        deliver(*watcher, response);
}

void WatchHub::onCreated(const pb::WatchResponse& response) {
    if (awaitingCreated_.empty())
        return;
    auto watcher = std::move(awaitingCreated_.front());
    awaitingCreated_.pop_front();
    if (response.canceled() || response.watch_id() < 0) {
        if (watcher->cancelled)
            return;
        if (mayBeStaleToken(response) && core_.authConfigured() && !watcher->authRetried) {
            // etcd restarted or the token expired: authenticate again, then re-create every
            // watch on a stream that carries the new token.
            watcher->authRetried = true;
            unsent_.push_back(std::move(watcher));
            core_.forgetToken(token_);
            replaceStream();
            return;
        }
        end(*watcher, cancelError(response));
        return;
    }
    watcher->watchId = response.watch_id();
    watcher->authRetried = false;
    active_[response.watch_id()] = watcher;
    if (watcher->cancelled) {
        sendCancel(response.watch_id());
        return;
    }
    if (watcher->nextRevision == 0)
        watcher->nextRevision = response.header().revision() + 1;
    if (!std::exchange(watcher->createdDelivered, true))
        deliver(*watcher, response);
}

void WatchHub::deliver(Watcher& watcher, const pb::WatchResponse& response) {
    watcher.callbacks.with([&](WatchCallbacks& cb) {
        if (cb.onResponse)
            cb.onResponse(response);
    });
}

void WatchHub::requestProgress() {
    if (!stream_)
        return;
    ++userProgressRequests_;
    sendProgressRequest();
}

void WatchHub::sendProgressRequest() {
    pb::WatchRequest request;
    request.mutable_progress_request();
    stream_->write(std::move(request));
}

void WatchHub::armTicker() {
    if (tickerArmed_)
        return;
    tickerArmed_ = core_.schedule(tickInterval, [this] {
        tickerArmed_ = false;
        if (!stream_)
            return; // open() arms it again
        checkLiveness();
        if (stream_)
            armTicker();
    });
}

void WatchHub::checkLiveness() {
    if (active_.empty() && awaitingCreated_.empty())
        return;
    const auto now = Clock::now();
    if (probeSentAt_ && now - *probeSentAt_ > core_.attemptTimeout()) {
        core_.markUnavailable(member_); // it accepts requests but answers none: stopped
        replaceStream();
        return;
    }
    // Probes repeat while the stream is quiet: etcd drops a progress request while any of its
    // watchers catches up, so one unanswered probe alone proves nothing.
    if (now - lastHeard_ >= quietBeforeProbe && now - lastProbe_ >= probeInterval) {
        if (!probeSentAt_)
            probeSentAt_ = now;
        lastProbe_ = now;
        sendProgressRequest();
    }
}

void WatchHub::replaceStream() {
    if (!stream_ || replacing_)
        return;
    replacing_ = true;
    if (!brokenSince_)
        brokenSince_ = Clock::now();
    stream_->cancel();
}

void WatchHub::onClosed(const grpc::Status& status) {
    stream_ = nullptr;
    const bool replaced = std::exchange(replacing_, false);
    if (core_.stopping()) {
        endAll(Error(ErrorCode::Cancelled, "the client is shutting down"));
        return;
    }
    const std::string& target = core_.member(member_).endpoint.target;
    Error error;
    if (replaced) {
        error = Error(ErrorCode::Unavailable, "the watch stream to " + target +
                                                  " stopped answering and no other member took "
                                                  "over; check the cluster's health");
    } else if (status.ok()) {
        error = Error(ErrorCode::Unavailable,
                      "the watch stream to " + target + " was closed by the server; watch again");
    } else {
        error = core_.explainFailureNow(status, member_, "watch keys");
        error.message = "watch stream broke: " + error.message;
        if (error.code == ErrorCode::Unauthenticated && core_.authConfigured()) {
            core_.forgetToken(token_);
            error.code = ErrorCode::Unavailable; // a new token and a new stream may cure it
        } else if (isConnectionFailure(error.code)) {
            core_.markUnavailable(member_);
        }
    }
    if (replaced || (answered_ && error.code == ErrorCode::Unavailable)) {
        // A working stream broke (a restart, a dead member) or was given up: resume at once,
        // on the next member when this one failed.
        failedOpens_ = 0;
        retry(error, std::chrono::milliseconds(0));
        return;
    }
    openFailed(error);
}

void WatchHub::resumeAfter(std::chrono::milliseconds delay) {
    std::deque<std::shared_ptr<Watcher>> resumed;
    for (auto& [id, watcher] : active_)
        resumed.push_back(std::move(watcher));
    for (auto& watcher : awaitingCreated_)
        resumed.push_back(std::move(watcher));
    for (auto& watcher : unsent_)
        resumed.push_back(std::move(watcher));
    active_.clear();
    awaitingCreated_.clear();
    unsent_.clear();
    for (auto& watcher : resumed) {
        watcher->watchId = -1; // ids belong to the old stream
        if (!watcher->cancelled)
            unsent_.push_back(std::move(watcher));
    }
    if (unsent_.empty() || opening_ || reopenScheduled_)
        return;
    if (delay.count() == 0) {
        open();
        return;
    }
    reopenScheduled_ = core_.schedule(delay, [this] {
        reopenScheduled_ = false;
        if (!stream_ && !opening_ && !unsent_.empty())
            open();
    });
    if (!reopenScheduled_)
        endAll(Error(ErrorCode::Cancelled, "the client is shutting down"));
}

void WatchHub::endAll(const Error& error) {
    std::deque<std::shared_ptr<Watcher>> ended;
    for (auto* list : {&unsent_, &awaitingCreated_})
        for (auto& w : *list)
            ended.push_back(std::move(w));
    for (auto& [id, w] : active_)
        ended.push_back(std::move(w));
    unsent_.clear();
    awaitingCreated_.clear();
    active_.clear();
    brokenSince_.reset();
    failedOpens_ = 0;
    for (auto& w : ended)
        if (!w->cancelled)
            end(*w, error);
}

void WatchHub::end(Watcher& watcher, const Error& error) {
    watcher.callbacks.with([&](WatchCallbacks& cb) {
        if (cb.onEnd)
            cb.onEnd(error);
    });
    watcher.callbacks.disarm();
}

void WatchHub::shutdown() {
    if (stream_)
        stream_->cancel();
    else
        endAll(Error(ErrorCode::Cancelled, "the client is shutting down"));
}

} // namespace etcd::detail
