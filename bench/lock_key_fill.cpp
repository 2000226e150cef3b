#include "lock_key_fill.h"

#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace lockscope::bench {

void fillLockKeys(etcd::Client& client, const std::string& prefix, const MonitorShape& shape,
                  const std::vector<int64_t>& sessions) {
    // Many Txns in flight, so etcd commits them in shared batches: one at a time, each waited
    // for its own commit, a million keys took minutes.
    constexpr int inFlightLimit = 64;
    std::mutex mutex;
    std::condition_variable answered;
    int inFlight = 0;
    std::optional<etcd::Error> failed;
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
        std::unique_lock lock(mutex);
        answered.wait(lock, [&] { return inFlight < inFlightLimit; });
        ++inFlight;
        lock.unlock();
        client.txn(std::move(txn), [&](etcd::Result<etcd::pb::TxnResponse> done) {
            std::lock_guard answer(mutex);
            if (!done && !failed)
                failed = done.error();
            --inFlight;
            answered.notify_all();
        });
    }
    std::unique_lock lock(mutex);
    answered.wait(lock, [&] { return inFlight == 0; });
    if (failed)
        throw std::runtime_error("filling " + prefix + " failed: " + failed->message);
}

void clearPrefix(etcd::Client& client, const std::string& prefix) {
    etcd::pb::DeleteRangeRequest del;
    del.set_key(prefix);
    del.set_range_end(etcd::prefixRangeEnd(prefix));
    etcd::call(client, &etcd::Client::deleteRange, del);
}

} // namespace lockscope::bench
