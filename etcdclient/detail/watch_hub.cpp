#include "etcdclient/detail/watch_hub.h"

#include "etcdclient/detail/core.h"

namespace etcd::detail {

void WatchHub::add(std::shared_ptr<Watcher> watcher) {
    unsent_.push_back(std::move(watcher));
    if (stream_)
        sendCreates();
    else if (!opening_)
        open();
}

void WatchHub::open() {
    opening_ = true;
    core_.withToken([this](const Error* error, const std::string& token) {
        opening_ = false;
        if (error) {
            endAll(*error);
            return;
        }
        member_ = core_.preferredMember();
        answered_ = false;
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
    });
}

void WatchHub::sendCreates() {
    for (auto& watcher : unsent_) {
        if (watcher->cancelled)
            continue;
        pb::WatchRequest request;
        *request.mutable_create_request() = watcher->request;
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
    watcher->cancelled = true;
    // Not yet created: sendCreates skips it, or onResponse cancels it once its id is known.
    if (stream_ && active_.count(watcher->watchId))
        sendCancel(watcher->watchId);
}

namespace {

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

} // namespace

void WatchHub::onResponse(const pb::WatchResponse& response) {
    answered_ = true;
    failedOpens_ = 0;
    if (response.created()) {
        if (awaitingCreated_.empty())
            return;
        auto watcher = std::move(awaitingCreated_.front());
        awaitingCreated_.pop_front();
        watcher->watchId = response.watch_id();
        if (response.canceled() || response.watch_id() < 0) {
            if (!watcher->cancelled)
                end(*watcher, cancelError(response));
            return;
        }
        active_[response.watch_id()] = watcher;
        if (watcher->cancelled) {
            sendCancel(response.watch_id());
            return;
        }
        deliver(*watcher, response);
        return;
    }
    if (response.watch_id() == -1 && !response.canceled()) {
        // The answer to a progress request belongs to every watch on the stream.
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
    if (!watcher->cancelled)
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
    pb::WatchRequest request;
    request.mutable_progress_request();
    stream_->write(std::move(request));
}

void WatchHub::onClosed(const grpc::Status& status) {
    stream_ = nullptr;
    const std::string& target = core_.member(member_).endpoint.target;
    Error error;
    if (core_.stopping()) {
        error = Error(ErrorCode::Cancelled, "the client is shutting down");
    } else if (status.ok()) {
        error = Error(ErrorCode::Unavailable,
                      "the watch stream to " + target + " was closed by the server; watch again");
    } else {
        error = core_.explainFailure(status, member_, "watch keys");
        error.message = "watch stream broke: " + error.message;
        if (isConnectionFailure(error.code)) {
            core_.markUnavailable(member_);
            // A stream that died before answering anything created no watch on the server:
            // its create requests can go to the next member unchanged.
            if (!answered_ && ++failedOpens_ < core_.memberCount()) {
                for (auto it = awaitingCreated_.rbegin(); it != awaitingCreated_.rend(); ++it)
                    unsent_.push_front(std::move(*it));
                awaitingCreated_.clear();
                if (!unsent_.empty())
                    open();
                return;
            }
        }
    }
    failedOpens_ = 0;
    endAll(error);
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
