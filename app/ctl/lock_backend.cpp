#include "app/ctl/lock_backend.h"

#include "etcdclient/locks/mutex.h"
#include "etcdclient/locks/server_lock.h"

namespace lockscope {

namespace {

class MutexBackend final : public LockBackend {
public:
    MutexBackend(etcd::Client& client, std::shared_ptr<etcd::Session> session,
                 const std::string& name)
        : mutex_(etcd::Mutex::create(client, std::move(session), name)) {}
    void lock(ErrorCallback done) override { mutex_->lock(std::move(done)); }
    void tryLock(std::function<void(etcd::Result<bool>)> done) override {
        mutex_->tryLock(std::move(done));
    }
    void cancel() override { mutex_->cancel(); }
    void unlock(std::function<void()> done) override {
        mutex_->unlock([done = std::move(done)](auto) { done(); });
    }
    void onLost(ErrorCallback listener) override { mutex_->onLost(std::move(listener)); }
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
        done(etcd::Error(etcd::ErrorCode::InvalidArgument,
                         "etcd's Lock service has no try-lock: leave out --server-lock"));
    }
    void cancel() override { lock_->cancel(); }
    void unlock(std::function<void()> done) override {
        lock_->unlock([done = std::move(done)](const etcd::Error&) { done(); });
    }
    void onLost(ErrorCallback listener) override { lock_->onLost(std::move(listener)); }
    std::string key() const override { return lock_->key(); }
    int64_t fencingToken() const override { return lock_->fencingToken(); }

private:
    std::shared_ptr<etcd::ServerLock> lock_;
};

} // namespace

std::unique_ptr<LockBackend> mutexBackend(etcd::Client& client,
                                          std::shared_ptr<etcd::Session> session,
                                          const std::string& name) {
    return std::make_unique<MutexBackend>(client, std::move(session), name);
}

std::unique_ptr<LockBackend> serverLockBackend(etcd::Client& client,
                                               std::shared_ptr<etcd::Session> session,
                                               const std::string& name) {
    return std::make_unique<ServerLockBackend>(client, std::move(session), name);
}

} // namespace lockscope
