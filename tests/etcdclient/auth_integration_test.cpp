#include "etcdclient/blocking.h"
#include "process/local_cluster.h"
#include "support/etcd_auth.h"

#include <gtest/gtest.h>

using namespace etcd;
using lockscope::test::authPassword;
using lockscope::test::authUser;

namespace {

// etcd with authentication on: a root user (required to enable auth) and a user "alice" whose
// role may read and write only under /alice/.
class AuthIntegrationTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        cluster_ = std::make_unique<LocalCluster>(1);
        const Error started = cluster_->start();
        ASSERT_TRUE(started.ok()) << started.message;
        const std::string problem = lockscope::test::enableAuthentication(cluster_->endpointList());
        ASSERT_TRUE(problem.empty()) << problem;
    }
    static void TearDownTestSuite() { cluster_.reset(); }

    std::unique_ptr<Client> clientAs(const std::string& user, const std::string& password) {
        ClientOptions options;
        options.endpoints = cluster_->endpoints();
        options.username = user;
        options.password = password;
        auto created = Client::create(options);
        EXPECT_TRUE(created);
        return std::move(created).value();
    }
    static pb::PutRequest putOf(const std::string& key) {
        pb::PutRequest p;
        p.set_key(key);
        p.set_value("v");
        return p;
    }

    static std::unique_ptr<LocalCluster> cluster_;
};

std::unique_ptr<LocalCluster> AuthIntegrationTest::cluster_;

TEST_F(AuthIntegrationTest, RightPasswordWorks) {
    auto alice = clientAs(authUser, authPassword);
    auto put = call(*alice, &Client::put, putOf("/alice/x"));
    ASSERT_TRUE(put) << put.error().message;
    pb::RangeRequest get;
    get.set_key("/alice/x");
    auto got = call(*alice, &Client::range, get);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_EQ(got->kvs_size(), 1);
}

TEST_F(AuthIntegrationTest, WrongPasswordGivesAClearAuthFailedError) {
    auto wrong = clientAs(authUser, "nope");
    auto put = call(*wrong, &Client::put, putOf("/alice/y"));
    ASSERT_FALSE(put);
    EXPECT_EQ(put.error().code, ErrorCode::AuthFailed) << put.error().message;
    EXPECT_NE(put.error().message.find("--user"), std::string::npos) << put.error().message;
}

TEST_F(AuthIntegrationTest, NoCredentialsSaysAuthenticationIsRequired) {
    ClientOptions options;
    options.endpoints = cluster_->endpoints();
    auto anonymous = Client::create(options);
    ASSERT_TRUE(anonymous);
    auto put = call(**anonymous, &Client::put, putOf("/alice/z"));
    ASSERT_FALSE(put);
    EXPECT_EQ(put.error().code, ErrorCode::Unauthenticated) << put.error().message;
}

TEST_F(AuthIntegrationTest, OutsideTheRolesPrefixIsPermissionDenied) {
    auto alice = clientAs(authUser, authPassword);
    auto put = call(*alice, &Client::put, putOf("/bob/x"));
    ASSERT_FALSE(put);
    EXPECT_EQ(put.error().code, ErrorCode::PermissionDenied) << put.error().message;
    EXPECT_NE(put.error().message.find("user 'alice' may not write key '/bob/x'"),
              std::string::npos)
        << put.error().message;
}

TEST_F(AuthIntegrationTest, WatchAndKeepAliveStreamsCarryTheToken) {
    auto alice = clientAs(authUser, authPassword);
    std::promise<pb::WatchResponse> created;
    pb::WatchCreateRequest w;
    w.set_key("/alice/watched");
    bool once = false;
    auto handle = alice->watch(w, {[&](const pb::WatchResponse& r) {
                                       if (!once) {
                                           once = true;
                                           created.set_value(r);
                                       }
                                   },
                                   nullptr});
    auto f = created.get_future();
    ASSERT_EQ(f.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    EXPECT_TRUE(f.get().created());
}

TEST_F(AuthIntegrationTest, ExpiredTokenIsRenewedTransparently) {
    auto alice = clientAs(authUser, authPassword);
    ASSERT_TRUE(call(*alice, &Client::put, putOf("/alice/a")));
    // Restarting etcd forgets every simple token: the next call meets "invalid auth token".
    ASSERT_TRUE(cluster_->restartMember(0).ok());
    ASSERT_TRUE(cluster_->waitReady().ok());
    auto put = call(*alice, &Client::put, putOf("/alice/b"));
    ASSERT_TRUE(put) << put.error().message;
}

} // namespace
