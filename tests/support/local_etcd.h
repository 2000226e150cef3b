#pragma once

#include "etcdclient/client.h"
#include "etcdclient/result.h"
#include "process/local_cluster.h"

#include <memory>
#include <string>
#include <vector>

namespace lockscope::test {

// Set-up any test framework shares: values or the error that prevented them, for the test to
// assert on with its own macros.

// A running LocalCluster of `members` etcd servers on free loopback ports with temporary data
// directories (removed when it is destroyed), each given `extraArguments` (etcd flags such as
// "--quota-backend-bytes=1048576"), or why it did not start.
etcd::Result<std::unique_ptr<etcd::LocalCluster>>
startCluster(int members = 1, etcd::LocalClusterTls tls = {},
             std::vector<std::string> extraArguments = {});

// A client on `cluster`, with its TLS files.
etcd::Result<std::unique_ptr<etcd::Client>> clientOf(const etcd::LocalCluster& cluster);

// A running etcd and a client on it, for a test (or a suite) that asserts once:
//     QVERIFY2(etcd.start(), etcd.error().c_str());
//     ASSERT_TRUE(etcd.start()) << etcd.error();
class LocalEtcd {
public:
    // Starts `members` etcd servers and makes a client on them; false if either failed, with
    // what failed in error().
    bool start(int members = 1, etcd::LocalClusterTls tls = {},
               std::vector<std::string> extraArguments = {});
    const std::string& error() const { return error_; }
    // Destroys the client, then stops the servers and removes their data.
    void stop();

    etcd::LocalCluster& cluster() const { return *cluster_; }
    etcd::Client& client() const { return *client_; }

private:
    std::unique_ptr<etcd::LocalCluster> cluster_;
    std::unique_ptr<etcd::Client> client_;
    std::string error_;
};

// The keys under `keyPrefix` in create order (a lock's queue: holder first).
etcd::Result<std::vector<std::string>> keysUnder(etcd::Client& via, const std::string& keyPrefix);

// Writes `count` keys `<keyPrefix><n>` (n from 0) with a short value, in transactions of
// etcd's default maximum of 128 operations: ten thousand keys in about eighty round trips.
etcd::Result<int64_t> putKeys(etcd::Client& via, const std::string& keyPrefix, int count);

// Puts 64 KiB values under `keyPrefix`, 20 ms apart, until etcd refuses one: on an etcd started
// with a small --quota-backend-bytes, the refusal that raised its NOSPACE alarm. Ok when 200
// puts (12.8 MB) were all accepted. Spaced because etcd checks the quota against its database
// file, which grows as its batches commit (every 100 ms): puts in a burst pass it.
etcd::Error fillUntilRefused(etcd::Client& via, const std::string& keyPrefix);

} // namespace lockscope::test
