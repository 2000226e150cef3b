#pragma once

#include "etcdclient/client.h"
#include "etcdclient/local_cluster.h"

#include <gtest/gtest.h>
#include <memory>

namespace lockscope::test {

// A real etcd for a whole test suite: started once on a free loopback port with a temporary
// data directory, stopped and removed after the suite. Each test gets a fresh key prefix.
class EtcdTest : public ::testing::Test {
public:
    static void SetUpTestSuite();
    static void TearDownTestSuite();

protected:
    void SetUp() override;

    static etcd::LocalCluster& cluster() { return *cluster_; }
    // A new client on the suite's etcd, with options adjusted by the caller.
    std::unique_ptr<etcd::Client> makeClient(etcd::ClientOptions options = {});
    // Keys of this test live under this prefix ("/t/<suite>/<test>/").
    const std::string& prefix() const { return prefix_; }

    std::unique_ptr<etcd::Client> client;

private:
    static std::unique_ptr<etcd::LocalCluster> cluster_;
    std::string prefix_;
};

// A 3-member cluster on loopback, per test: failover tests stop and restart members.
class EtcdClusterTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    std::unique_ptr<etcd::LocalCluster> cluster;
};

// The index of the member that currently leads, asked of each member in turn; -1 if none.
int leaderOf(const etcd::LocalCluster& cluster);

// The cluster's endpoints starting with `first`'s, so a client's calls and streams go there.
std::vector<std::string> endpointsFrom(const etcd::LocalCluster& cluster, int first);

// SIGSTOPs a member for its lifetime: it keeps its connections open and answers nothing, as a
// hung server does.
class StoppedMember {
public:
    StoppedMember(const etcd::LocalCluster& cluster, int member);
    ~StoppedMember();
    StoppedMember(const StoppedMember&) = delete;
    StoppedMember& operator=(const StoppedMember&) = delete;

private:
    pid_t pid_;
};

} // namespace lockscope::test
