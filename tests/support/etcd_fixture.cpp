#include "support/etcd_fixture.h"

#include "etcdclient/blocking.h"

#include <algorithm>
#include <csignal>

namespace lockscope::test {

std::unique_ptr<etcd::LocalCluster> EtcdTest::cluster_;

void EtcdTest::SetUpTestSuite() {
    cluster_ = std::make_unique<etcd::LocalCluster>(1);
    const etcd::Error error = cluster_->start();
    ASSERT_TRUE(error.ok()) << "could not start etcd: " << error.message;
}

void EtcdTest::TearDownTestSuite() {
    cluster_.reset();
}

void EtcdTest::SetUp() {
    ASSERT_TRUE(cluster_ && cluster_->running(0)) << "the suite's etcd is not running";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    prefix_ = std::string("/t/") + info->test_suite_name() + "/" + info->name() + "/";
    client = makeClient();
    ASSERT_TRUE(client);
}

std::unique_ptr<etcd::Client> EtcdTest::makeClient(etcd::ClientOptions options) {
    if (options.endpoints == etcd::ClientOptions{}.endpoints)
        options.endpoints = cluster_->endpoints();
    auto created = etcd::Client::create(std::move(options));
    EXPECT_TRUE(created.ok()) << created.error().message;
    return created ? std::move(created).value() : nullptr;
}

void EtcdClusterTest::SetUp() {
    cluster = std::make_unique<etcd::LocalCluster>(3);
    const etcd::Error error = cluster->start();
    ASSERT_TRUE(error.ok()) << "could not start a 3-member etcd cluster: " << error.message;
}

void EtcdClusterTest::TearDown() {
    cluster.reset();
}

int leaderOf(const etcd::LocalCluster& cluster) {
    for (int i = 0; i < cluster.size(); ++i) {
        etcd::ClientOptions options;
        options.endpoints = {cluster.endpoint(i)};
        auto member = etcd::Client::create(options);
        if (!member)
            continue;
        auto status = etcd::call(**member, &etcd::Client::status, etcd::pb::StatusRequest());
        if (status && status->header().member_id() == status->leader())
            return i;
    }
    return -1;
}

std::vector<std::string> endpointsFrom(const etcd::LocalCluster& cluster, int first) {
    auto endpoints = cluster.endpoints();
    std::rotate(endpoints.begin(), endpoints.begin() + first, endpoints.end());
    return endpoints;
}

StoppedMember::StoppedMember(const etcd::LocalCluster& cluster, int member)
    : pid_(cluster.pid(member)) {
    ::kill(pid_, SIGSTOP);
}

StoppedMember::~StoppedMember() {
    ::kill(pid_, SIGCONT);
}

} // namespace lockscope::test
