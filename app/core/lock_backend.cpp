#include "app/core/lock_backend.h"

#include "etcdclient/locks/rw_mutex.h"
#include "etcdclient/locks/server_lock.h"
#include "etcdclient/locks/single_key_lock.h"

namespace lockscope {

namespace {

etcd::Error noTryLock(const char* why) {
    return etcd::Error(etcd::ErrorCode::InvalidArgument, why);
}

class MutexBackend final : public LockBackend {
public:
    MutexBackend(etcd::Client& client, std::shared_ptr<etcd::Session> session,
                 const std::string& name, etcd::KeyMode mode)
        : mutex_(etcd::createLock(client, std::move(session), name, mode)) {}
    void lock(ErrorCallback done) override { mutex_->lock(std::move(done)); }
    void tryLock(std::function<void(etcd::Result<bool>)> done) override {
        mutex_->tryLock(std::move(done));
    }
    void cancel() override { mutex_->cancel(); }
    void unlock(ErrorCallback done) override {
        mutex_->unlock([done = std::move(done)](const etcd::Result<bool>& deleted) {
            done(deleted ? etcd::Error() : deleted.error()); // false: our key was gone already
        });
    }
    void onLost(ErrorCallback listener) override { mutex_->onLost(std::move(listener)); }
    bool held() const override { return mutex_->held(); }
    std::string key() const override { return mutex_->key(); }
    int64_t fencingToken() const override { return mutex_->fencingToken(); }

private:
    std::shared_ptr<etcd::Mutex> mutex_;
};

class ServerLockBackend final : public LockBackend {
public:
    ServerLockBackend(etcd::Client& client, std::shared_ptr<etcd::Session> session,
                      const std::string& name)
        : lock_(etcd::ServerLock::create(client, std::move(session), name)) {}
    void lock(ErrorCallback done) override {
        lock_->lock(etcd::ServerLock::noWaitLimit, std::move(done));
    }
    void tryLock(std::function<void(etcd::Result<bool>)> done) override {
        done(noTryLock("etcd's Lock service has no try-lock: use our Mutex to take a lock only "
                       "if it is free"));
    }
    void cancel() override { lock_->cancel(); }
    void unlock(ErrorCallback done) override { lock_->unlock(std::move(done)); }
    void onLost(ErrorCallback listener) override { lock_->onLost(std::move(listener)); }
    bool held() const override { return lock_->held(); }
    std::string key() const override { return lock_->key(); }
    int64_t fencingToken() const override { return lock_->fencingToken(); }

private:
    std::shared_ptr<etcd::ServerLock> lock_;
};

class SingleKeyBackend final : public LockBackend {
public:
    SingleKeyBackend(etcd::Client& client, std::shared_ptr<etcd::Session> session,
                     const std::string& name)
        : lock_(etcd::SingleKeyLock::create(client, std::move(session), name)) {}
    void lock(ErrorCallback done) override { lock_->lock(std::move(done)); }
    void tryLock(std::function<void(etcd::Result<bool>)> done) override {
        lock_->tryLock(std::move(done));
    }
    void cancel() override { lock_->cancel(); }
    void unlock(ErrorCallback done) override { lock_->unlock(std::move(done)); }
    void onLost(ErrorCallback listener) override { lock_->onLost(std::move(listener)); }
    bool held() const override { return lock_->held(); }
    std::string key() const override { return lock_->key(); }
    int64_t fencingToken() const override { return lock_->fencingToken(); }

private:
    std::shared_ptr<etcd::SingleKeyLock> lock_;
};

class CandidacyBackend final : public LockBackend {
public:
    CandidacyBackend(std::shared_ptr<etcd::Election> election, std::string proposal)
        : election_(std::move(election))
        , proposal_(std::move(proposal)) {}
    void lock(ErrorCallback done) override { election_->campaign(proposal_, std::move(done)); }
    void tryLock(std::function<void(etcd::Result<bool>)> done) override {
        done(noTryLock("a campaign always waits for its turn to lead"));
    }
    void cancel() override { election_->cancel(); }
    void unlock(ErrorCallback done) override {
        election_->resign([done = std::move(done)](const etcd::Result<bool>& resigned) {
            done(resigned ? etcd::Error() : resigned.error());
        });
    }
    void onLost(ErrorCallback listener) override { election_->onLost(std::move(listener)); }
    bool held() const override { return election_->leader(); }
    std::string key() const override { return election_->key(); }
    int64_t fencingToken() const override { return election_->revision(); }

private:
    std::shared_ptr<etcd::Election> election_;
    const std::string proposal_;
};

} // namespace

std::unique_ptr<LockBackend> makeLockBackend(LockBackendKind kind, etcd::Client& client,
                                             std::shared_ptr<etcd::Session> session,
                                             const std::string& name, etcd::KeyMode mode) {
    if (kind == LockBackendKind::ServerLock)
        return std::make_unique<ServerLockBackend>(client, std::move(session), name);
    if (kind == LockBackendKind::SingleKey)
        return std::make_unique<SingleKeyBackend>(client, std::move(session), name);
    return std::make_unique<MutexBackend>(client, std::move(session), name, mode);
}

std::unique_ptr<LockBackend> candidacyBackend(std::shared_ptr<etcd::Election> election,
                                              std::string proposal) {
    return std::make_unique<CandidacyBackend>(std::move(election), std::move(proposal));
}

} // namespace lockscope
