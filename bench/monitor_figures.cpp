#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "etcdclient/locks/lock_monitor.h"
#include "figures.h"
#include "resident_memory.h"

#include <thread>

namespace lockscope::bench {

namespace {

// The shape's lock keys, 128 puts per Txn (etcd's cap).
void fill(etcd::Client& client, const std::string& prefix, const MonitorShape& shape) {
    const int keys = shape.keys();
    for (int first = 0; first < keys; first += 128) {
        etcd::pb::TxnRequest txn;
        for (int i = first; i < std::min(keys, first + 128); ++i) {
            auto* put = txn.add_success()->mutable_request_put();
            put->set_key(prefix + "lock" + std::to_string(i / shape.keysPerLock) + "/" +
                         etcd::leaseHex(0x694d000000000000 + i));
        }
        etcd::call(client, &etcd::Client::txn, txn);
    }
}

void clear(etcd::Client& client, const std::string& prefix) {
    etcd::pb::DeleteRangeRequest del;
    del.set_key(prefix);
    del.set_range_end(etcd::prefixRangeEnd(prefix));
    etcd::call(client, &etcd::Client::deleteRange, del);
}

} // namespace

std::vector<LoadFigure> measureMonitorLoad(etcd::Client& client, const Scale& scale) {
    std::vector<LoadFigure> out;
    for (const MonitorShape& shape : scale.monitorShapes) {
        const std::string prefix = "/bench/monitor/" + std::to_string(shape.locks) + "x" +
                                   std::to_string(shape.keysPerLock) + "/";
        fill(client, prefix, shape);
        const double before = residentMb();
        const auto start = std::chrono::steady_clock::now();
        etcd::LockMonitor::Options options;
        options.prefix = prefix;
        auto monitor = etcd::LockMonitor::create(client, options);
        monitor->start();
        while (!monitor->liveness().first)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        out.push_back({shape, seconds, residentMb() - before});
        monitor.reset();
        clear(client, prefix);
    }
    return out;
}

} // namespace lockscope::bench
