#include "support/local_etcd.h"

#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"

#include <algorithm>
#include <thread>

namespace lockscope::test {

etcd::Result<std::unique_ptr<etcd::LocalCluster>>
startCluster(int members, etcd::LocalClusterTls tls, std::vector<std::string> extraArguments) {
    auto cluster = std::make_unique<etcd::LocalCluster>(members, "etcd", std::move(tls));
    cluster->setExtraArguments(std::move(extraArguments));
    const etcd::Error error = cluster->start();
    if (!error.ok())
        return etcd::Error(error.code, "could not start a " + std::to_string(members) +
                                           "-member etcd cluster: " + error.message);
    return cluster;
}

etcd::Result<std::unique_ptr<etcd::Client>> clientOf(const etcd::LocalCluster& cluster) {
    return etcd::Client::create(cluster.clientOptions());
}

bool LocalEtcd::start(int members, etcd::LocalClusterTls tls,
                      std::vector<std::string> extraArguments) {
    stop();
    auto cluster = startCluster(members, std::move(tls), std::move(extraArguments));
    if (!cluster) {
        error_ = cluster.error().message;
        return false;
    }
    cluster_ = std::move(cluster).value();
    auto client = clientOf(*cluster_);
    if (!client) {
        error_ = "could not make a client on the test's etcd: " + client.error().message;
        return false;
    }
    client_ = std::move(client).value();
    error_.clear();
    return true;
}

void LocalEtcd::stop() {
    client_.reset();
    cluster_.reset();
}

etcd::Result<std::vector<std::string>> keysUnder(etcd::Client& via, const std::string& keyPrefix) {
    etcd::pb::RangeRequest r;
    r.set_key(keyPrefix);
    r.set_range_end(etcd::prefixRangeEnd(keyPrefix));
    r.set_keys_only(true);
    r.set_sort_target(etcd::pb::RangeRequest::CREATE);
    r.set_sort_order(etcd::pb::RangeRequest::ASCEND);
    auto got = etcd::call(via, &etcd::Client::range, r);
    if (!got)
        return got.error();
    std::vector<std::string> keys;
    for (const auto& kv : got->kvs())
        keys.push_back(kv.key());
    return keys;
}

etcd::Result<int64_t> putKeys(etcd::Client& via, const std::string& keyPrefix, int count) {
    constexpr int maxTxnOps = 128; // etcd's --max-txn-ops default
    int64_t revision = 0;
    for (int first = 0; first < count; first += maxTxnOps) {
        etcd::pb::TxnRequest txn;
        for (int n = first; n < std::min(count, first + maxTxnOps); ++n) {
            auto* put = txn.add_success()->mutable_request_put();
            put->set_key(keyPrefix + std::to_string(n));
            put->set_value("v");
        }
        auto done = etcd::call(via, &etcd::Client::txn, txn);
        if (!done)
            return done.error();
        revision = done->header().revision();
    }
    return revision;
}

etcd::Error fillUntilRefused(etcd::Client& via, const std::string& keyPrefix) {
    etcd::pb::PutRequest put;
    put.set_value(std::string(64 * 1024, 'x'));
    for (int n = 0; n < 200; ++n) {
        put.set_key(keyPrefix + std::to_string(n));
        if (auto written = etcd::call(via, &etcd::Client::put, put); !written)
            return written.error();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return {};
}

} // namespace lockscope::test
