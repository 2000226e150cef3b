#include "lock_key_fill.h"

#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

namespace lockscope::bench {

void fillLockKeys(etcd::Client& client, const std::string& prefix, const MonitorShape& shape,
                  const std::vector<int64_t>& sessions) {
    // Several Txns in flight, so etcd commits them in shared batches: one at a time, each
    // waited for its own commit, a million keys took minutes. A Txn etcd timed out (it does,
    // past a million keys on a busy machine) is sent again afterwards: its puts are the same.
    constexpr int inFlightLimit = 16;
    constexpr int attempts = 5;
    std::mutex mutex;
    std::condition_variable answered;
    int inFlight = 0;
    std::vector<etcd::pb::TxnRequest> failed;
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
        client.txn(txn, [&, txn](etcd::Result<etcd::pb::TxnResponse> done) {
            std::lock_guard answer(mutex);
            if (!done)
                failed.push_back(txn);
            --inFlight;
            answered.notify_all();
        });
    }
    std::unique_lock lock(mutex);
    answered.wait(lock, [&] { return inFlight == 0; });
    lock.unlock();
    for (const etcd::pb::TxnRequest& txn : failed)
        for (int attempt = 1;; ++attempt) {
            const auto done = etcd::call(client, &etcd::Client::txn, txn);
            if (done)
                break;
            if (attempt == attempts)
                throw std::runtime_error("filling " + prefix + " failed: " + done.error().message);
        }
}

void clearPrefix(etcd::Client& client, const std::string& prefix) {
    etcd::pb::DeleteRangeRequest del;
    del.set_key(prefix);
    del.set_range_end(etcd::prefixRangeEnd(prefix));
    etcd::call(client, &etcd::Client::deleteRange, del);
}

} // namespace lockscope::bench
