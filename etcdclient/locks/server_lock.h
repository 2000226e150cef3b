#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/session.h"

#include <functional>
#include <memory>
#include <mutex>

namespace etcd {

// The second lock backend: etcd's own v3lock service does the acquire and the waiting on the
// server, with our session's lease. It queues with Mutex and `etcdctl lock` on the same keys.
// There is no server-side TryLock; a wait ends when acquired or when `waitLimit` passes (the
// server then deletes our waiting key). Thread-safe; callbacks run on the client's thread.
class ServerLock : public std::enable_shared_from_this<ServerLock> {
public:
    static std::shared_ptr<ServerLock> create(Client& client, std::shared_ptr<Session> session,
                                              std::string name);

    using Done = std::function<void(const Error&)>;
    void lock(std::chrono::milliseconds waitLimit, Done done);
    // Deletes our key through the service (a plain delete on the server).
    void unlock(std::function<void(const Error&)> done = nullptr);

    const std::string& name() const { return name_; }
    std::string key() const;
    int64_t fencingToken() const; // our key's create revision once held

private:
    ServerLock(Client& client, std::shared_ptr<Session> session, std::string name);
    void onLocked(const Done& done, Result<v3lockpb::LockResponse> locked);
    void onKeyRead(const std::string& key, const Done& done, Result<pb::RangeResponse> read);

    Client& client_;
    const std::shared_ptr<Session> session_;
    const std::string name_;
    mutable std::mutex mutex_;
    std::string key_;
    int64_t token_ = 0;
};

} // namespace etcd
