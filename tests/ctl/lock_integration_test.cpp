#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/waiting.h"

#include <csignal>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockscopectlLockIntegrationTest : public EtcdTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::unique_ptr<ChildProcess> lockscopectl(std::vector<std::string> args) {
        std::vector<std::string> argv = {LOCKSCOPECTL, "--endpoints", cluster().endpointList(),
                                         "lock"};
        argv.insert(argv.end(), args.begin(), args.end());
        return std::make_unique<ChildProcess>(argv);
    }
    std::unique_ptr<ChildProcess> etcdctlLock(std::vector<std::string> args = {}) {
        std::vector<std::string> all = {"lock", lockName()};
        all.insert(all.end(), args.begin(), args.end());
        return std::make_unique<ChildProcess>(etcdctlArgs(cluster().endpointList(), all),
                                              std::vector<std::string>{"ETCDCTL_API=3"});
    }
    std::vector<mvccpb::KeyValue> queue() {
        pb::RangeRequest r;
        r.set_key(lockName() + "/");
        r.set_range_end(prefixRangeEnd(lockName() + "/"));
        r.set_sort_target(pb::RangeRequest::CREATE);
        r.set_sort_order(pb::RangeRequest::ASCEND);
        auto got = call(*client, &Client::range, r);
        EXPECT_TRUE(got) << got.error().message;
        return got ? std::vector<mvccpb::KeyValue>(got->kvs().begin(), got->kvs().end())
                   : std::vector<mvccpb::KeyValue>{};
    }
};

TEST_F(LockscopectlLockIntegrationTest, PrintsTheKeyHoldsUntilSigintThenReleases) {
    auto ours = lockscopectl({lockName()});
    auto key = ours->readLine(10s);
    ASSERT_TRUE(key) << "no key printed";
    auto q = queue();
    ASSERT_EQ(q.size(), 1u);
    EXPECT_EQ(*key, q[0].key());

    auto theirs = etcdctlLock();
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    EXPECT_FALSE(theirs->readLine(500ms)) << "etcdctl got in while lockscopectl held the lock";
    ours->signal(SIGINT);
    EXPECT_EQ(ours->wait(10s), 0);
    ASSERT_TRUE(theirs->readLine(10s)) << "etcdctl did not acquire after lockscopectl let go";
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
    EXPECT_TRUE(eventually([&] { return queue().empty(); }));
}

TEST_F(LockscopectlLockIntegrationTest, RunsTheCommandWithKeyAndFencingTokenAndExitsWithItsStatus) {
    auto ours = lockscopectl({lockName(), "--ttl", "5", "--", "sh", "-c",
                              "echo \"$LOCKSCOPE_LOCK_KEY $LOCKSCOPE_FENCING_TOKEN\"; exit 7"});
    auto line = ours->readLine(10s);
    ASSERT_TRUE(line);
    const auto space = line->find(' ');
    ASSERT_NE(space, std::string::npos) << *line;
    EXPECT_EQ(line->substr(0, lockName().size() + 1), lockName() + "/");
    EXPECT_GT(std::stoll(line->substr(space + 1)), 0);
    EXPECT_EQ(ours->wait(10s), 7);
    EXPECT_TRUE(queue().empty()) << "the key outlived the command";
}

TEST_F(LockscopectlLockIntegrationTest, WaitsBehindEtcdctlAndInterruptingTheWaitLeavesNoKey) {
    auto theirs = etcdctlLock();
    ASSERT_TRUE(theirs->readLine(10s));
    auto ours = lockscopectl({lockName()});
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    EXPECT_FALSE(ours->readLine(300ms));
    ours->signal(SIGTERM);
    EXPECT_EQ(ours->wait(10s), 1);
    auto q = queue();
    ASSERT_EQ(q.size(), 1u) << "our waiting key was left behind";
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
}

TEST_F(LockscopectlLockIntegrationTest, TryOnAHeldLockExitsThreeAndLeavesNoKey) {
    auto theirs = etcdctlLock();
    ASSERT_TRUE(theirs->readLine(10s));
    auto ours = lockscopectl({lockName(), "--try"});
    EXPECT_EQ(ours->wait(10s), 3);
    EXPECT_EQ(queue().size(), 1u);
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
    auto free = lockscopectl({"--try", lockName(), "--", "true"});
    EXPECT_EQ(free->wait(10s), 0);
    EXPECT_TRUE(queue().empty());
}

TEST_F(LockscopectlLockIntegrationTest, LosingTheLockTerminatesTheCommandAndSaysSo) {
    auto ours = lockscopectl({lockName(), "--", "sh", "-c", "echo started; sleep 30"});
    ASSERT_EQ(ours->readLine(10s), std::optional<std::string>("started"));
    auto q = queue();
    ASSERT_EQ(q.size(), 1u);
    const auto start = std::chrono::steady_clock::now();
    // An operator force-releases the holder by revoking its lease.
    pb::LeaseRevokeRequest revoke;
    revoke.set_id(q[0].lease());
    ASSERT_TRUE(call(*client, &Client::leaseRevoke, revoke));
    EXPECT_EQ(ours->wait(10s), 4);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 7s) << "the sleep was not terminated";
    bool said = false;
    while (auto line = ours->readLine(100ms))
        said = said || line->find("lost") != std::string::npos ||
               line->find("deleted") != std::string::npos;
    EXPECT_TRUE(said) << "lockscopectl did not say the lock was lost";
}

TEST_F(LockscopectlLockIntegrationTest, BadArgumentsExitTwoWithAMessage) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{}, {"--ttl", "abc", "x"}, {"--bogus", "x"}}) {
        auto ours = lockscopectl(args);
        auto line = ours->readLine(5s);
        EXPECT_TRUE(line && line->find("lockscopectl:") != std::string::npos);
        EXPECT_EQ(ours->wait(5s), 2);
    }
}

} // namespace
