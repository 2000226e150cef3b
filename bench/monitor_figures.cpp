#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "etcdclient/locks/lock_monitor.h"
#include "figures.h"

#include <fstream>
#include <thread>
#include <unistd.h>

namespace lockscope::bench {

namespace {

double residentMb() {
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
           (1024.0 * 1024.0);
}

// `keys` lock keys spread over locks of 100 contenders each, 128 puts per Txn (etcd's cap).
void fill(etcd::Client& client, const std::string& prefix, int keys) {
    for (int first = 0; first < keys; first += 128) {
        etcd::pb::TxnRequest txn;
        for (int i = first; i < std::min(keys, first + 128); ++i) {
            auto* put = txn.add_success()->mutable_request_put();
            put->set_key(prefix + "lock" + std::to_string(i / 100) + "/" +
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
    for (int keys : scale.monitorKeys) {
        const std::string prefix = "/bench/monitor/" + std::to_string(keys) + "/";
        fill(client, prefix, keys);
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
        out.push_back({keys, seconds, residentMb() - before});
        monitor.reset();
        clear(client, prefix);
    }
    return out;
}

} // namespace lockscope::bench
