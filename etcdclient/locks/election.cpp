#include "etcdclient/locks/election.h"

#include "etcdclient/weak_callback.h"

namespace etcd {

std::shared_ptr<Election> Election::create(Client& client, std::shared_ptr<Session> session,
                                           std::string name) {
    return std::shared_ptr<Election>(new Election(client, std::move(session), std::move(name)));
}

Election::Election(Client& client, std::shared_ptr<Session> session, std::string name)
    : client_(client)
    , session_(std::move(session))
    , name_(std::move(name)) {}

std::string Election::key() const {
    std::lock_guard lock(mutex_);
    return candidacy_ ? candidacy_->key() : std::string();
}

std::string Election::proposal() const {
    std::lock_guard lock(mutex_);
    return proposal_;
}

bool Election::leader() const {
    std::lock_guard lock(mutex_);
    return candidacy_ && candidacy_->held();
}

int64_t Election::revision() const {
    std::lock_guard lock(mutex_);
    return candidacy_ ? candidacy_->fencingToken() : 0;
}

void Election::campaign(std::string proposal, std::function<void(const Error&)> done) {
    std::shared_ptr<Mutex> candidacy;
    {
        std::unique_lock lock(mutex_);
        if (candidacy_) {
            const Mutex::State state = candidacy_->state();
            if (state != Mutex::State::Idle && state != Mutex::State::Lost) {
                lock.unlock(); // done() may ask this Election again
                done(Error(ErrorCode::FailedPrecondition,
                           "already a candidate in election " + name_ + ": resign first"));
                return;
            }
        }
        // A new candidacy per campaign, so the key is put with this campaign's proposal.
        candidacy_ = Mutex::create(client_, session_, name_, proposal);
        candidacy_->onLost(weakCallback(this, &Election::forwardLost));
        proposal_ = std::move(proposal);
        candidacy = candidacy_;
    }
    candidacy->lock(std::move(done));
}

void Election::cancel() {
    std::unique_lock lock(mutex_);
    auto candidacy = candidacy_;
    lock.unlock();
    if (candidacy)
        candidacy->cancel();
}

void Election::proclaim(std::string proposal, std::function<void(Result<bool>)> done) {
    std::unique_lock lock(mutex_);
    auto candidacy = candidacy_;
    lock.unlock();
    if (!candidacy || !candidacy->held()) {
        done(false);
        return;
    }
    pb::RequestOp op;
    auto* put = op.mutable_request_put();
    put->set_key(candidacy->key());
    put->set_value(proposal);
    put->set_lease(session_->leaseId());
    candidacy->guardedWrite({std::move(op)},
                            [weak = weak_from_this(), proposal, done](Result<bool> written) {
                                if (auto self = weak.lock(); self && written && written.value()) {
                                    std::lock_guard lock(self->mutex_);
                                    self->proposal_ = proposal;
                                }
                                done(std::move(written));
                            });
}

void Election::resign(std::function<void(Result<bool>)> done) {
    std::unique_lock lock(mutex_);
    auto candidacy = candidacy_;
    lock.unlock();
    if (!candidacy) {
        if (done)
            done(false);
        return;
    }
    candidacy->unlock(std::move(done));
}

void Election::onLost(std::function<void(const Error&)> listener) {
    std::lock_guard lock(mutex_);
    lostListeners_.push_back(std::move(listener));
}

void Election::forwardLost(const Error& error) {
    std::unique_lock lock(mutex_);
    auto listeners = lostListeners_;
    lock.unlock();
    for (auto& listener : listeners)
        listener(error);
}

} // namespace etcd
