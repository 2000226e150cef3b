// readEtcdHistory and readKeptRevisions against a real etcd: the locks at a past revision and
// every change since, as a recording would hold them, and the revisions etcd keeps around a
// compaction.
#include "app/core/etcd_history.h"
#include "app/core/history_replay.h"
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"

#include <gtest/gtest.h>

using namespace etcd;
using namespace lockscope;
using lockscope::test::EtcdTest;
using namespace std::chrono_literals;

namespace {

class EtcdHistoryIntegrationTest : public EtcdTest {
protected:
    std::vector<int64_t> leases;
    int64_t put(const std::string& key, int64_t lease = 0) {
        pb::PutRequest request;
        request.set_key(prefix() + key);
        request.set_lease(lease);
        const auto done = call(*client, &Client::put, request);
        EXPECT_TRUE(done) << done.error().message;
        return done ? done->header().revision() : 0;
    }
    int64_t erase(const std::string& key) {
        pb::DeleteRangeRequest request;
        request.set_key(prefix() + key);
        const auto done = call(*client, &Client::deleteRange, request);
        EXPECT_TRUE(done) << done.error().message;
        return done ? done->header().revision() : 0;
    }
    // The keys of each lock at `revision`, as etcd's Range reads them then and as a replay of
    // etcd's history from `from` gives them.
    static std::map<std::string, std::vector<std::string>> keysOf(const LockMonitorState& state) {
        std::map<std::string, std::vector<std::string>> keys;
        for (const auto& [name, queue] : state.locks)
            for (const auto& key : queue->keys)
                keys[name].push_back(key.key);
        return keys;
    }
};

TEST_F(EtcdHistoryIntegrationTest, TheLocksAtARevisionAndEveryChangeSince) {
    // Go Mutex keys: each named by its own lease, in the lock "job".
    std::vector<std::string> keys;
    for (int i = 0; i < 3; ++i) {
        pb::LeaseGrantRequest grant;
        grant.set_ttl(60);
        const auto lease = call(*client, &Client::leaseGrant, grant);
        ASSERT_TRUE(lease) << lease.error().message;
        keys.push_back("job/" + leaseHex(lease->id()));
        leases.push_back(lease->id());
    }
    const int64_t from = put(keys[0], leases[0]);
    put(keys[1], leases[1]);
    const int64_t middle = put(keys[2], leases[2]);
    erase(keys[0]);
    const int64_t last = erase(keys[1]);

    const auto history = waitFor<Result<EtcdHistory>>([&](auto done) {
        readEtcdHistory(*client, prefix(), from, RecipeOverride::Auto, std::move(done));
    });
    ASSERT_TRUE(history) << history.error().message;
    EXPECT_EQ(history->from, from);
    EXPECT_GE(history->until, last);
    ASSERT_EQ(history->checkpoints.size(), 1u);
    EXPECT_EQ(history->checkpoints.front().revision, from);
    EXPECT_EQ(history->checkpoints.front().keys.size(), 1u);
    int64_t lastEvent = 0;
    for (const auto& entry : history->entries)
        lastEvent = std::max(lastEvent, std::get<LockEvent>(entry).revision);
    EXPECT_EQ(lastEvent, last) << "every change up to the revision asked";

    const auto at = [&](int64_t revision) {
        const auto replayed = replayAt(history->checkpoints, history->entries, revision);
        EXPECT_TRUE(replayed);
        return replayed ? keysOf(replayed->state())
                        : std::map<std::string, std::vector<std::string>>{};
    };
    const std::string lock = prefix() + "job";
    const auto key = [&](int i) { return prefix() + keys[i]; };
    using Locks = std::map<std::string, std::vector<std::string>>;
    EXPECT_EQ(at(from), (Locks{{lock, {key(0)}}}));
    EXPECT_EQ(at(middle), (Locks{{lock, {key(0), key(1), key(2)}}}));
    EXPECT_EQ(at(last), (Locks{{lock, {key(2)}}}));
}

TEST_F(EtcdHistoryIntegrationTest, KeptRevisionsFollowACompactionAndOlderOnesAreRefused) {
    put("a");
    const int64_t compactAt = put("b");
    const int64_t newest = put("c");
    const auto compacted =
        lockscope::test::etcdctl(cluster().endpointList(), {"compact", std::to_string(compactAt)});
    ASSERT_EQ(compacted.exitCode, 0) << compacted.output;
    const auto kept = waitFor<Result<KeptRevisions>>(
        [&](auto done) { readKeptRevisions(*client, std::move(done)); });
    ASSERT_TRUE(kept) << kept.error().message;
    EXPECT_EQ(kept->oldest, compactAt);
    EXPECT_GE(kept->newest, newest);
    const auto refused = waitFor<Result<EtcdHistory>>([&](auto done) {
        readEtcdHistory(*client, prefix(), compactAt - 1, RecipeOverride::Auto, std::move(done));
    });
    EXPECT_FALSE(refused);
}

} // namespace
