#include "app/core/lock_history.h"

namespace lockscope {

std::vector<HistoryKey> historyKeysOf(const etcd::LockMonitorState& state) {
    std::vector<HistoryKey> keys;
    for (const auto& [name, queue] : state.locks) {
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
