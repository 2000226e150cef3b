#pragma once

#include "etcdclient/client.h"
#include "process/local_cluster.h"
#include "support/test_certificates.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace lockscope::test {

// A real etcd for a whole test suite: started once on a free loopback port with a temporary
// data directory, stopped and removed after the suite. Each test gets a fresh key prefix.
class EtcdTest : public ::testing::Test {
public:
    static void SetUpTestSuite();
    static void TearDownTestSuite();

protected:
    void SetUp() override;

    // Starts the suite's etcd (with TLS when `tls` names certificates).
    static void startSuiteCluster(etcd::LocalClusterTls tls = {});
    static etcd::LocalCluster& cluster() { return *cluster_; }
    // A new client on the suite's etcd (with its TLS files unless the caller sets some), with
    // options adjusted by the caller.
    std::unique_ptr<etcd::Client> makeClient(etcd::ClientOptions options = {});
    // Keys of this test live under this prefix ("/t/<suite>/<test>/").
    const std::string& prefix() const { return prefix_; }
    // The keys under `keyPrefix` in create order (a lock's queue: holder first), read through
    // this test's client or `via`.
    std::vector<std::string> keysUnder(const std::string& keyPrefix);
    static std::vector<std::string> keysUnder(etcd::Client& via, const std::string& keyPrefix);

    std::unique_ptr<etcd::Client> client;

private:
    static std::unique_ptr<etcd::LocalCluster> cluster_;
    std::string prefix_;
};

// EtcdTest over TLS: the suite's etcd serves https only and requires client certificates
// signed by certificates()'s CA; makeClient() presents one.
class EtcdTlsTest : public EtcdTest {
public:
    static void SetUpTestSuite();
    static void TearDownTestSuite();

protected:
    static const TestCertificates& certificates() { return *certificates_; }

private:
    static std::unique_ptr<TestCertificates> certificates_;
};

// A 3-member cluster on loopback, per test: failover tests stop and restart members.
class EtcdClusterTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    // The cluster's TLS files; none by default.
    virtual etcd::LocalClusterTls clusterTls() { return {}; }
    std::unique_ptr<etcd::LocalCluster> cluster;
};

// EtcdClusterTest with TLS between clients and members and among members.
class EtcdTlsClusterTest : public EtcdClusterTest {
protected:
    etcd::LocalClusterTls clusterTls() override;
    TestCertificates certificates;
};

// The index of the member that currently leads, asked of each member in turn; -1 if none.
int leaderOf(const etcd::LocalCluster& cluster);

// The cluster's endpoints starting with `first`'s, so a client's calls and streams go there.
std::vector<std::string> endpointsFrom(const etcd::LocalCluster& cluster, int first);

} // namespace lockscope::test
