#include "etcdclient/locks/rw_mutex.h"

#include <chrono>
#include <string>

namespace etcd {

LockLayout rwMutexLayout(const std::string& name, KeyMode mode, int64_t unique) {
    const std::string prefix = name + "/";
    // The recipe's blockers: "<name>/write" without its slash, exactly as it reads them.
    return {prefix + keyModeName(mode) + "/" + std::to_string(unique), prefix,
            mode == KeyMode::Read ? prefix + "write" : prefix};
}

std::shared_ptr<Mutex> createLock(Client& client, std::shared_ptr<Session> session,
                                  std::string name, KeyMode mode) {
    if (mode == KeyMode::Exclusive)
        return Mutex::create(client, std::move(session), std::move(name));
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    LockLayout layout = rwMutexLayout(name, mode, now);
    return Mutex::create(client, std::move(session), std::move(name), std::move(layout));
}

} // namespace etcd
