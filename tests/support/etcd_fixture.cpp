#include "support/etcd_fixture.h"

#include "etcdclient/blocking.h"
#include "support/local_etcd.h"

#include <algorithm>

namespace lockscope::test {

std::unique_ptr<etcd::LocalCluster> EtcdTest::cluster_;

void EtcdTest::SetUpTestSuite() {
    startSuiteCluster();
}

void EtcdTest::startSuiteCluster(etcd::LocalClusterTls tls) {
    auto started = startCluster(1, std::move(tls));
    ASSERT_TRUE(started) << started.error().message;
    cluster_ = std::move(started).value();
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
    const etcd::ClientOptions suite = cluster_->clientOptions();
    if (options.endpoints == etcd::ClientOptions{}.endpoints)
        options.endpoints = suite.endpoints;
    if (options.caFile.empty() && options.certFile.empty()) {
        options.caFile = suite.caFile;
        options.certFile = suite.certFile;
        options.keyFile = suite.keyFile;
    }
    auto created = etcd::Client::create(std::move(options));
    EXPECT_TRUE(created.ok()) << created.error().message;
    return created ? std::move(created).value() : nullptr;
}

std::unique_ptr<TestCertificates> EtcdTlsTest::certificates_;

void EtcdTlsTest::SetUpTestSuite() {
    certificates_ = std::make_unique<TestCertificates>();
    ASSERT_EQ(certificates_->error(), "");
    startSuiteCluster(certificates_->clusterTls());
}

void EtcdTlsTest::TearDownTestSuite() {
    EtcdTest::TearDownTestSuite();
    certificates_.reset();
}

std::vector<std::string> EtcdTest::keysUnder(const std::string& keyPrefix) {
    return keysUnder(*client, keyPrefix);
}

std::vector<std::string> EtcdTest::keysUnder(etcd::Client& via, const std::string& keyPrefix) {
    auto keys = test::keysUnder(via, keyPrefix);
    EXPECT_TRUE(keys) << keys.error().message;
    return keys ? std::move(keys).value() : std::vector<std::string>{};
}

void EtcdClusterTest::SetUp() {
    auto started = startCluster(3, clusterTls());
    ASSERT_TRUE(started) << started.error().message;
    cluster = std::move(started).value();
}

void EtcdClusterTest::TearDown() {
    cluster.reset();
}

etcd::LocalClusterTls EtcdTlsClusterTest::clusterTls() {
    EXPECT_EQ(certificates.error(), "");
    return certificates.clusterTls();
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

} // namespace lockscope::test
