#include "etcdclient/locks/session.h"

#include "etcdclient/clock.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/weak_callback.h"

#include <algorithm>

namespace etcd {

namespace {
// How often a late lease is asked about while its deadline nears. Once a new leader is elected
// the next question is answered within milliseconds, so each step of this is time cut from what
// an election may take before the deadline.
constexpr std::chrono::milliseconds probeRepeat{100};

// When a lease granted or renewed for `ttlSeconds` at `from` ends, saturated (etcd allows TTLs
// up to 9e9 s).
std::chrono::steady_clock::time_point leaseEnd(std::chrono::steady_clock::time_point from,
                                               int64_t ttlSeconds) {
    return saturatingAdd(from, std::chrono::seconds(ttlSeconds));
}

// What a holder must have stopped by, before the lease can end at `deadline`. NTP slews a clock
// by at most 500 ppm, so 1 ms a second of TTL covers two clocks apart; 100 ms covers a thread
// waking late on a loaded machine and signals being delivered.
std::chrono::steady_clock::time_point safeBefore(std::chrono::steady_clock::time_point deadline,
                                                 int64_t ttlSeconds) {
    return deadline - std::chrono::milliseconds(100 + ttlSeconds);
}
} // namespace

void Session::create(Client& client, int64_t ttlSeconds, Created done) {
    pb::LeaseGrantRequest grant;
    grant.set_ttl(ttlSeconds);
    const auto sentAt = std::chrono::steady_clock::now();
    client.leaseGrant(grant, [&client, sentAt, done = std::move(done)](auto granted) {
        if (!granted) {
            done(granted.error());
            return;
        }
        if (!granted->error().empty()) {
            done(Error(ErrorCode::InvalidArgument, "lease grant refused: " + granted->error()));
            return;
        }
        std::shared_ptr<Session> session(new Session(client, granted->id(), granted->ttl()));
        session->deadline_ = leaseEnd(sentAt, granted->ttl());
        session->startKeepAlive();
        done(std::move(session));
    });
}

Session::Session(Client& client, int64_t leaseId, int64_t ttlSeconds)
    : client_(client)
    , leaseId_(leaseId)
    , ttl_(ttlSeconds) {}

Session::~Session() {
    stopKeepAlive();
    if (!released_) {
        pb::LeaseRevokeRequest revoke;
        revoke.set_id(leaseId_);
        client_.leaseRevoke(revoke, [](auto) {});
    }
}

int64_t Session::ttlSeconds() const {
    std::lock_guard lock(mutex_);
    return ttl_;
}

std::chrono::steady_clock::time_point Session::deadline() const {
    std::lock_guard lock(mutex_);
    return deadline_;
}

std::chrono::steady_clock::time_point Session::safeDeadline() const {
    std::lock_guard lock(mutex_);
    return safeBefore(deadline_, ttl_);
}

bool Session::lost() const {
    std::lock_guard lock(mutex_);
    return lost_.has_value();
}

bool Session::paused() const {
    std::lock_guard lock(mutex_);
    return paused_;
}

void Session::startKeepAlive() {
    auto handle = client_.keepAlive(
        leaseId_, ttlSeconds(),
        {weakCallback(this, &Session::onAnswer), weakCallback(this, &Session::markLost)});
    std::unique_lock lock(mutex_);
    std::swap(keepAlive_, handle);
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
        safeBefore(deadline_, ttl_) - std::chrono::steady_clock::now());
    lock.unlock();
    handle.cancel(); // a replaced handle (none unless resumed twice)
    scheduleDeadlineCheck(wait);
}

void Session::scheduleDeadlineCheck(std::chrono::milliseconds wait) {
    {
        std::lock_guard lock(mutex_);
        if (checkPending_)
            return; // one check at a time; it re-arms itself while the deadline moves on
        checkPending_ = true;
    }
    client_.schedule(std::max(wait, std::chrono::milliseconds(0)),
                     weakCallback(this, &Session::checkDeadline));
}

void Session::onAnswer(const KeepAliveAnswer& answer) {
    std::lock_guard lock(mutex_);
    if (lost_)
        return;
    ttl_ = answer.ttlSeconds;
    deadline_ = std::max(deadline_, leaseEnd(answer.sentAt, answer.ttlSeconds));
}

void Session::checkDeadline() {
    std::chrono::steady_clock::time_point deadline, leaseEnds;
    std::chrono::milliseconds probeLead;
    {
        std::lock_guard lock(mutex_);
        checkPending_ = false;
        if (lost_ || released_)
            return;
        leaseEnds = deadline_;
        deadline = safeBefore(deadline_, ttl_);
        probeLead = std::chrono::milliseconds(ttl_ * 1000 / 3);
    }
    // Safety: a successor can take a lock we hold only after etcd revoked our lease, and etcd
    // cannot revoke it before deadline_ (the send time of the last answered keepalive + TTL).
    // So we may keep going until the safe deadline (deadline_ less a margin, safeDeadline())
    // and not a moment longer without news from etcd: a holder acting on the lock (the desktop
    // showing it ours, a worker writing) must stop before etcd may hand it on.
    // When keepalive answers run late (a hung member, a leader election), we ask
    // LeaseTimeToLive from deadline_ - TTL/3 on: an answer "alive, r seconds left" to a
    // question sent at t proves the lease unrevoked until t + r, since a revoked lease never
    // comes back. Only such proofs move the deadline; when none has come by deadline_, the
    // session is lost even though etcd may still keep the lease (a leader change resets TTLs),
    // because asking after it would let a holder run on after a successor took over.
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
        markLost(
            Error(ErrorCode::LeaseNotFound,
                  "session lost: no member confirmed lease " + leaseHex(leaseId_) +
                      " in time, so etcd may expire it within " +
                      std::to_string(
                          std::chrono::ceil<std::chrono::milliseconds>(leaseEnds - now).count()) +
                      " ms"));
        return;
    }
    const auto untilDeadline = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
    if (untilDeadline > probeLead) {
        scheduleDeadlineCheck(untilDeadline - probeLead);
        return;
    }
    probeLease(untilDeadline);
    scheduleDeadlineCheck(std::min(untilDeadline, probeRepeat));
}

void Session::probeLease(std::chrono::milliseconds untilDeadline) {
    pb::LeaseTimeToLiveRequest request;
    request.set_id(leaseId_);
    const auto sentAt = std::chrono::steady_clock::now();
    std::weak_ptr<Session> weak = weak_from_this();
    // An answer after the deadline comes too late; and a member that has not answered by then is
    // not thereby hung (a follower waits for a new leader just as long), so the probe does not
    // move calls off it: the keepalive stream judges that.
    client_.leaseTimeToLiveWithin(
        untilDeadline, request, [weak, sentAt](Result<pb::LeaseTimeToLiveResponse> reply) {
            auto self = weak.lock();
            if (!self || !reply)
                return; // no answer proves nothing: the deadline stands
            if (reply->ttl() == -1) {
                self->markLost(Error(ErrorCode::LeaseNotFound, "session lost: etcd says lease " +
                                                                   leaseHex(self->leaseId_) +
                                                                   " expired or was revoked"));
                return;
            }
            std::lock_guard lock(self->mutex_);
            if (reply->ttl() > 0)
                self->deadline_ = std::max(self->deadline_, leaseEnd(sentAt, reply->ttl()));
        });
}

void Session::markLost(const Error& error) {
    std::vector<std::function<void(const Error&)>> listeners;
    {
        std::lock_guard lock(mutex_);
        if (lost_ || released_)
            return;
        lost_ = error;
        listeners.swap(lostListeners_);
    }
    for (auto& listener : listeners)
        listener(error);
}

void Session::onLost(std::function<void(const Error&)> listener) {
    std::unique_lock lock(mutex_);
    if (lost_) {
        const Error error = *lost_;
        lock.unlock();
        listener(error);
        return;
    }
    lostListeners_.push_back(std::move(listener));
}

void Session::close(std::function<void(const Error&)> done) {
    {
        std::lock_guard lock(mutex_);
        released_ = true;
    }
    stopKeepAlive();
    pb::LeaseRevokeRequest revoke;
    revoke.set_id(leaseId_);
    client_.leaseRevoke(revoke, [done = std::move(done)](auto revoked) {
        // An already expired lease is as closed as a revoked one.
        const bool gone = revoked || revoked.error().code == ErrorCode::LeaseNotFound;
        if (done)
            done(gone ? Error() : revoked.error());
    });
}

void Session::orphan() {
    {
        std::lock_guard lock(mutex_);
        released_ = true;
    }
    stopKeepAlive();
}

void Session::stopKeepAlive() {
    // Cancelled outside mutex_: cancel() waits for a running keepalive callback, which may be
    // waiting for mutex_.
    KeepAliveHandle handle;
    {
        std::lock_guard lock(mutex_);
        handle = std::move(keepAlive_);
    }
    handle.cancel();
}

void Session::setPaused(bool paused) {
    {
        std::lock_guard lock(mutex_);
        if (paused_ == paused || released_)
            return;
        paused_ = paused;
    }
    if (paused)
        stopKeepAlive();
    else
        startKeepAlive();
}

} // namespace etcd
