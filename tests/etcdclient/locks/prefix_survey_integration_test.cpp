#include "etcdclient/blocking.h"
#include "etcdclient/locks/prefix_survey.h"
#include "support/etcd_fixture.h"
#include "support/local_etcd.h"

using namespace etcd;
using namespace lockscope::test;

namespace {

class PrefixSurveyIntegrationTest : public EtcdTest {
protected:
    Result<PrefixSurvey> survey(const std::string& prefix, int64_t sampleSize) {
        return waitFor<Result<PrefixSurvey>>(
            [&](auto done) { surveyPrefix(*client, prefix, sampleSize, std::move(done)); });
    }
};

// 150 configuration keys and 50 lock keys: the count is of all of them, the sample tells which
// share looks like locks.
TEST_F(PrefixSurveyIntegrationTest, CountsEveryKeyAndJudgesTheShapeOfASample) {
    ASSERT_TRUE(putKeys(*client, prefix() + "config/item-", 150));
    for (int n = 0; n < 50; ++n) {
        pb::PutRequest put;
        put.set_key(prefix() + "jobs/nightly/" + std::to_string(0x694d0000 + n));
        ASSERT_TRUE(call(*client, &Client::put, put));
    }

    const auto all = survey(prefix(), 1000);
    ASSERT_TRUE(all) << all.error().message;
    EXPECT_EQ(all->keys, 200);
    EXPECT_EQ(all->sampled, 200);
    EXPECT_EQ(all->lockShaped, 50);
    EXPECT_EQ(all->estimatedOtherKeys(), 150);
    EXPECT_GT(all->revision, 0);

    // A bounded sample still counts every key: the first 20 in key order are configuration.
    const auto sampled = survey(prefix(), 20);
    ASSERT_TRUE(sampled) << sampled.error().message;
    EXPECT_EQ(sampled->keys, 200);
    EXPECT_EQ(sampled->sampled, 20);
    EXPECT_EQ(sampled->lockShaped, 0);
    EXPECT_EQ(sampled->estimatedOtherKeys(), 200);

    // Narrowed to the locks: all lock-shaped.
    const auto locks = survey(prefix() + "jobs/", 1000);
    ASSERT_TRUE(locks) << locks.error().message;
    EXPECT_EQ(locks->keys, 50);
    EXPECT_EQ(locks->estimatedOtherKeys(), 0);
}

// The lease's hex must be the last segment after a name: the prefix itself is not a name.
TEST_F(PrefixSurveyIntegrationTest, AKeyRightUnderThePrefixIsNotALockKey) {
    pb::PutRequest put;
    put.set_key(prefix() + "694d");
    ASSERT_TRUE(call(*client, &Client::put, put));
    const auto result = survey(prefix(), 10);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->keys, 1);
    EXPECT_EQ(result->lockShaped, 0);
}

TEST_F(PrefixSurveyIntegrationTest, AnEmptyPrefixRangeIsNoKeys) {
    const auto result = survey(prefix() + "nothing-here/", 10);
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->keys, 0);
    EXPECT_EQ(result->estimatedOtherKeys(), 0);
}

} // namespace
