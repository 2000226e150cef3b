#include "lock_key_fill.h"

#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"

#include <algorithm>

namespace lockscope::bench {

void fillLockKeys(etcd::Client& client, const std::string& prefix, const MonitorShape& shape,
                  const std::vector<int64_t>& sessions) {
    const int keys = shape.keys();
    for (int first = 0; first < keys; first += 128) {
        etcd::pb::TxnRequest txn;
        for (int i = first; i < std::min(keys, first + 128); ++i) {
            auto* put = txn.add_success()->mutable_request_put();
            const int64_t lease = sessions.empty()
                                      ? 0x694d000000000000 + i
                                      : sessions[static_cast<std::size_t>(i % shape.keysPerLock)];
            put->set_key(prefix + "lock" + std::to_string(i / shape.keysPerLock) + "/" +
                         etcd::leaseHex(lease));
            if (!sessions.empty())
                put->set_lease(lease);
        }
        etcd::call(client, &etcd::Client::txn, txn);
    }
}

void clearPrefix(etcd::Client& client, const std::string& prefix) {
    etcd::pb::DeleteRangeRequest del;
    del.set_key(prefix);
    del.set_range_end(etcd::prefixRangeEnd(prefix));
    etcd::call(client, &etcd::Client::deleteRange, del);
}

} // namespace lockscope::bench
