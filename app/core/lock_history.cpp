#include "app/core/lock_history.h"

namespace lockscope {

std::vector<HistoryKey> historyKeysOf(const std::map<std::string, etcd::LockQueue>& locks) {
    std::vector<HistoryKey> keys;
    for (const auto& [name, queue] : locks) {
        const std::size_t holders = queue.holderCount();
        for (std::size_t i = 0; i < queue.keys.size(); ++i) {
            const etcd::LockKey& key = queue.keys[i];
            keys.push_back({name, key.key, key.lease, key.createRevision, key.modRevision,
                            queue.kind(), i < holders});
        }
    }
    return keys;
}

} // namespace lockscope
