#include "etcdclient/detail/keepalive_hub.h"

#include "etcdclient/detail/core.h"
#include "etcdclient/hex_id.h"

namespace etcd::detail {

namespace {
constexpr std::chrono::milliseconds tickInterval{100};
constexpr std::chrono::milliseconds minBackoff{100};
constexpr std::chrono::milliseconds maxBackoff{2000};
} // namespace

void KeepAliveHub::add(std::shared_ptr<KeepAliveEntry> entry) {
    entry->nextSend = std::chrono::steady_clock::now();
    entries_[entry->leaseId] = std::move(entry);
    tick();
}

void KeepAliveHub::cancel(const std::shared_ptr<KeepAliveEntry>& entry) {
    auto it = entries_.find(entry->leaseId);
    if (it != entries_.end() && it->second == entry)
        entries_.erase(it);
}

void KeepAliveHub::tick() {
    if (entries_.empty())
        return;
    if (!stream_ && !opening_ && std::chrono::steady_clock::now() >= reopenAt_)
        open();
    if (stream_ && !replacing_ && unanswered())
        replaceStream();
    sendDue();
    armTicker();
}

bool KeepAliveHub::unanswered() const {
    const auto now = std::chrono::steady_clock::now();
    for (const auto& [id, entry] : entries_)
        if (!entry->unanswered.empty() && now - entry->unanswered.front() > patience(*entry))
            return true;
    return false;
}

std::chrono::milliseconds KeepAliveHub::patience(const KeepAliveEntry& entry) {
    return std::max(std::chrono::milliseconds(entry.ttlSeconds * 1000 / 3),
                    std::chrono::milliseconds(500));
}

std::chrono::milliseconds KeepAliveHub::sendInterval(const KeepAliveEntry& entry) {
    // Twice per patience rather than Go's once per TTL/3: the last confirmed keepalive before a
    // fault is then at most TTL/6 old, which leaves 5/6 of the TTL for a leader election to end
    // and a member to confirm the lease (see Session).
    return patience(entry) / 2;
}

void KeepAliveHub::replaceStream() {
    // A keepalive unanswered for TTL/3: the member stopped answering (a SIGSTOPped process
    // keeps its connections open) or lost its leader. Move on rather than wait for
    // the lease to run out; the next member forwards to whichever leader there is.
    core_.markUnavailable(member_);
    replacing_ = true;
    stream_->cancel();
}

void KeepAliveHub::armTicker() {
    if (tickerArmed_)
        return;
    tickerArmed_ = core_.schedule(tickInterval, [this] {
        tickerArmed_ = false;
        tick();
    });
}

void KeepAliveHub::open() {
    opening_ = true;
    core_.withToken([this](const Error* error, const std::string& token) {
        opening_ = false;
        if (error) {
            if (error->code != ErrorCode::Cancelled)
                reopenAt_ = std::chrono::steady_clock::now() + maxBackoff;
            return;
        }
        token_ = token;
        member_ = core_.preferredMember();
        auto* stub = core_.member(member_).lease.get();
        stream_ = core_.openStream<pb::LeaseKeepAliveRequest, pb::LeaseKeepAliveResponse>(
            token,
            [stub](grpc::ClientContext* context, grpc::CompletionQueue* cq) {
                return stub->PrepareAsyncLeaseKeepAlive(context, cq);
            },
            {[this](const pb::LeaseKeepAliveResponse& r) { onResponse(r); },
             [this](const grpc::Status& s) { onClosed(s); }});
        // A new stream: refresh every lease now rather than waiting out its interval; requests
        // sent on the old stream will never be answered.
        for (auto& [id, entry] : entries_) {
            entry->nextSend = std::chrono::steady_clock::now();
            entry->unanswered.clear();
        }
    });
}

void KeepAliveHub::sendDue() {
    if (!stream_)
        return;
    const auto now = std::chrono::steady_clock::now();
    for (auto& [id, entry] : entries_) {
        if (now < entry->nextSend)
            continue;
        pb::LeaseKeepAliveRequest request;
        request.set_id(id);
        stream_->write(std::move(request));
        entry->unanswered.push_back(now);
        entry->nextSend = now + sendInterval(*entry);
    }
}

void KeepAliveHub::onResponse(const pb::LeaseKeepAliveResponse& response) {
    backoff_ = std::chrono::milliseconds(0);
    auto it = entries_.find(response.id());
    if (it == entries_.end())
        return;
    auto entry = it->second;
    if (response.ttl() <= 0) {
        entries_.erase(it);
        end(*entry, Error(ErrorCode::LeaseNotFound,
                          "lease " + leaseHex(response.id()) + " expired or was revoked"));
        return;
    }
    entry->ttlSeconds = response.ttl();
    if (entry->unanswered.empty())
        return; // an answer to a request sent before the entry was re-added
    const KeepAliveAnswer answer{response.ttl(), entry->unanswered.front()};
    entry->unanswered.pop_front();
    entry->callbacks.with([&](KeepAliveCallbacks& cb) {
        if (cb.onAlive)
            cb.onAlive(answer);
    });
}

void KeepAliveHub::onClosed(const grpc::Status& status) {
    stream_ = nullptr;
    const bool replaced = std::exchange(replacing_, false);
    if (core_.stopping()) {
        endAll(Error(ErrorCode::Cancelled, "the client is shutting down"));
        return;
    }
    if (replaced) {
        reopenAt_ = std::chrono::steady_clock::now(); // the next tick opens on the next member
        return;
    }
    const ErrorCode code = errorFromStatus(status, "").code;
    if (code == ErrorCode::Unauthenticated && core_.authConfigured())
        core_.forgetToken(token_); // etcd restarted or the token expired: the next open logs in
    else if (!status.ok())
        core_.markUnavailable(member_);
    backoff_ = std::clamp(backoff_ * 2, minBackoff, maxBackoff);
    reopenAt_ = std::chrono::steady_clock::now() + backoff_;
}

void KeepAliveHub::end(KeepAliveEntry& entry, const Error& error) {
    entry.callbacks.with([&](KeepAliveCallbacks& cb) {
        if (cb.onEnd)
            cb.onEnd(error);
    });
    entry.callbacks.disarm();
}

void KeepAliveHub::shutdown() {
    if (stream_) {
        stream_->cancel();
        return;
    }
    endAll(Error(ErrorCode::Cancelled, "the client is shutting down"));
}

void KeepAliveHub::endAll(const Error& error) {
    auto ended = std::move(entries_);
    entries_.clear();
    for (auto& [id, entry] : ended)
        end(*entry, error);
}

} // namespace etcd::detail
