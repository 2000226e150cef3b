// `lockscopectl lock --server-lock` (etcd's Lock service) against a real etcd and Debian's real
// `etcdctl lock`.
#include "etcdclient/hex_id.h"
#include "lockscopectl_test.h"
#include "support/waiting.h"

#include <csignal>

using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockscopectlServerLockIntegrationTest : public LockscopectlTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::vector<std::string> queue() { return keysUnder(lockName() + "/"); }
    std::string leases() { return etcdctl(cluster().endpointList(), {"lease", "list"}).output; }
    static std::string leaseOf(const std::string& key) { return key.substr(key.rfind('/') + 1); }
};

TEST_F(LockscopectlServerLockIntegrationTest, WaitsBehindEtcdctlThenHoldsUntilSigint) {
    auto theirs = etcdctlLock(lockName());
    const auto theirKey = theirs->readLine(10s);
    ASSERT_TRUE(theirKey);
    auto ours = lockscopectl({"lock", "--server-lock", lockName()});
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    const std::string ourKey = queue().back();
    EXPECT_FALSE(ours->readLine(300ms)) << "acquired while etcdctl held the lock";

    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
    EXPECT_EQ(ours->readLine(10s).value_or("<nothing>"), ourKey);
    // etcdctl queues behind us now.
    auto next = etcdctlLock(lockName());
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    EXPECT_FALSE(next->readLine(300ms)) << "etcdctl acquired while ours held the lock";

    ours->signal(SIGINT);
    EXPECT_EQ(ours->wait(10s), 0);
    EXPECT_TRUE(next->readLine(10s)) << "etcdctl did not acquire after ours let go";
    EXPECT_EQ(leases().find(leaseOf(ourKey)), std::string::npos) << "our lease outlived us";
    next->signal(SIGINT);
    EXPECT_EQ(next->wait(10s), 0);
}

TEST_F(LockscopectlServerLockIntegrationTest, InterruptedWhileWaitingLeavesNoKeyAndNoLease) {
    auto theirs = etcdctlLock(lockName());
    const auto theirKey = theirs->readLine(10s);
    ASSERT_TRUE(theirKey);
    auto ours = lockscopectl({"lock", "--server-lock", lockName()});
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    const std::string ourKey = queue().back();
    ours->signal(SIGTERM);
    EXPECT_EQ(ours->readLine(10s).value_or("<nothing>"),
              "lockscopectl: interrupted while waiting for " + lockName() +
                  "; our place in the queue was removed");
    EXPECT_EQ(ours->wait(10s), 1);
    EXPECT_EQ(queue(), std::vector<std::string>{*theirKey}) << "our waiting key outlived us";
    EXPECT_EQ(leases().find(leaseOf(ourKey)), std::string::npos) << "our lease outlived us";
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
}

TEST_F(LockscopectlServerLockIntegrationTest, TryWithServerLockIsRefused) {
    const auto [exitCode, lines] = runToEnd({"lock", "--server-lock", "--try", lockName()});
    EXPECT_EQ(exitCode, 2);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front(), "lockscopectl: --try and --server-lock do not go together: etcd's "
                             "Lock service has no try-lock; leave out one of them");
    EXPECT_TRUE(queue().empty());
}

} // namespace
