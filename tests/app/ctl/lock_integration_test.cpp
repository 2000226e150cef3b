#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/key_range.h"
#include "etcdclient/locks/mutex.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "support/child_processes.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/waiting.h"

#include <QRegularExpression>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iterator>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockscopectlLockIntegrationTest : public EtcdTest {
protected:
    std::string lockName() const { return prefix() + "lock"; }
    std::unique_ptr<ChildProcess> lockscopectl(std::vector<std::string> args,
                                               std::vector<std::string> environment = {}) {
        std::vector<std::string> argv = {LOCKSCOPECTL, "--endpoints", cluster().endpointList(),
                                         "lock"};
        argv.insert(argv.end(), args.begin(), args.end());
        return std::make_unique<ChildProcess>(argv, std::move(environment));
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
    // What the real etcdctl says is left on the server: keys under the lock, and whether
    // `lease` is still listed.
    std::string keysLeft() {
        return etcdctl(cluster().endpointList(), {"get", "--prefix", "--keys-only", lockName()})
            .output;
    }
    bool leaseListed(int64_t lease) {
        return etcdctl(cluster().endpointList(), {"lease", "list"}).output.find(leaseHex(lease)) !=
               std::string::npos;
    }
    void revokeLease(int64_t lease) {
        auto revoked = etcdctl(cluster().endpointList(), {"lease", "revoke", leaseHex(lease)});
        ASSERT_EQ(revoked.exitCode, 0) << revoked.output;
    }
    // The line lockscopectl writes when a wait fails and it queues again, if one comes.
    static std::optional<std::string> retryLine(ChildProcess& process) {
        while (auto line = process.readLine(10s))
            if (line->find("queueing again") != std::string::npos)
                return line;
        return std::nullopt;
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

// A lock holds little, and scripts take locks in loops: lockscopectl lock starts once, without
// the second start-up that the huge-page heap costs (process/huge_page_heap.h), and the command
// gets the caller's GLIBC_TUNABLES as they were. Whether lockscopectl ran again is read from the
// marker in its environment in /proc.
TEST_F(LockscopectlLockIntegrationTest, StartsOnceAndTheCommandGetsTheCallersTunables) {
    for (const std::string caller : {"", "glibc.malloc.perturb=0"}) {
        SCOPED_TRACE("caller's GLIBC_TUNABLES: " + caller);
        auto ours = lockscopectl(
            {lockName(), "--", "sh", "-c",
             "echo \"command: ${GLIBC_TUNABLES-unset}${LOCKSCOPE_CALLER_GLIBC_TUNABLES+ and a "
             "marker}\"; echo \"parent: $(cat /proc/$PPID/comm)\"; tr '\\0' '\\n' < "
             "/proc/$PPID/environ | grep '^LOCKSCOPE_CALLER_GLIBC_TUNABLES=' || echo run once"},
            caller.empty() ? std::vector<std::string>{}
                           : std::vector<std::string>{"GLIBC_TUNABLES=" + caller});
        EXPECT_EQ(ours->readLine(10s), "command: " + (caller.empty() ? "unset" : caller));
        EXPECT_EQ(ours->readLine(10s), "parent: lockscopectl");
        EXPECT_EQ(ours->readLine(10s), std::optional<std::string>("run once"));
        EXPECT_EQ(ours->wait(10s), 0);
    }
    EXPECT_TRUE(queue().empty()) << "a key outlived its command";
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

// The command's own children, and theirs, go with it: revoking the lease stops the
// whole tree at once (SIGTERM), and what ignores SIGTERM gets SIGKILL when the grace is over.
TEST_F(LockscopectlLockIntegrationTest, ARevokedLeaseStopsTheWholeCommandTreeWithinTheGrace) {
    const std::string pids = ::testing::TempDir() + "tree-" + std::to_string(::getpid());
    std::remove(pids.c_str());
    // sh, a sleep of its own, and a second sh ignoring SIGTERM with a sleep of its own.
    auto ours = lockscopectl({lockName(), "--ttl", "30", "--grace", "2s", "--", "sh", "-c",
                              R"(echo $$ >> "$0"; sleep 40 & echo $! >> "$0"
            sh -c 'trap "" TERM; echo $$ >> "$0"; sleep 40 & echo $! >> "$0"; wait' "$0" &
            wait)",
                              pids});
    std::vector<pid_t> tree;
    ASSERT_TRUE(eventually([&] {
        std::ifstream in(pids);
        tree.assign(std::istream_iterator<pid_t>(in), std::istream_iterator<pid_t>());
        return tree.size() == 4;
    })) << "the command did not start its tree";
    auto q = queue();
    ASSERT_EQ(q.size(), 1u);
    revokeLease(q[0].lease());
    const auto revoked = std::chrono::steady_clock::now();
    EXPECT_TRUE(
        eventually([&] { return std::none_of(tree.begin(), tree.end(), processAlive); }, 2s + 1s))
        << "some of the tree outlived the grace";
    EXPECT_EQ(ours->wait(10s), 4);
    EXPECT_LT(std::chrono::steady_clock::now() - revoked, 2s + 5s);
    for (pid_t pid : tree)
        EXPECT_TRUE(::kill(pid, 0) != 0 && errno == ESRCH) << pid << " outlived lockscopectl";
    std::string said;
    while (auto line = ours->readLine(100ms))
        said += *line + "\n";
    EXPECT_NE(said.find("lock lost: "), std::string::npos) << said;
    EXPECT_NE(said.find("SIGKILL at "), std::string::npos) << "the trap ignores SIGTERM: " << said;
    std::remove(pids.c_str());
}

TEST_F(LockscopectlLockIntegrationTest, NeitherSigtermNorTheCommandsEndLeavesAChildBehind) {
    const auto childOf = [](ChildProcess& ours) {
        const auto pid = ours.readLine(10s);
        return pid ? std::stoi(*pid) : -1;
    };
    auto signalled = lockscopectl({lockName(), "--", "sh", "-c", "sleep 30 & echo $!; wait"});
    const pid_t waitedFor = childOf(*signalled);
    ASSERT_GT(waitedFor, 0);
    signalled->signal(SIGTERM);
    EXPECT_EQ(signalled->wait(10s), 128 + SIGTERM); // the command's status: sh died of it
    EXPECT_TRUE(::kill(waitedFor, 0) != 0 && errno == ESRCH) << "the sleep outlived lockscopectl";

    auto leaving = lockscopectl({lockName(), "--", "sh", "-c", "sleep 30 & echo $!"});
    const pid_t leftBehind = childOf(*leaving);
    ASSERT_GT(leftBehind, 0);
    EXPECT_EQ(leaving->wait(10s), 0);
    EXPECT_TRUE(::kill(leftBehind, 0) != 0 && errno == ESRCH) << "the sleep outlived lockscopectl";
    const auto said = leaving->readLine(1s);
    EXPECT_TRUE(said && said->find("leaving processes in its group") != std::string::npos)
        << (said ? *said : "nothing said");
    EXPECT_TRUE(queue().empty());
}

TEST_F(LockscopectlLockIntegrationTest, AWaiterWhoseLeaseIsRevokedQueuesAgainWithANewLease) {
    auto theirs = etcdctlLock();
    ASSERT_TRUE(theirs->readLine(10s));
    auto ours = lockscopectl({lockName()});
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    const int64_t firstLease = queue()[1].lease();
    revokeLease(firstLease);
    const auto said = retryLine(*ours);
    ASSERT_TRUE(said) << "no retry line";
    const QRegularExpression retryLinePattern(QRegularExpression::anchoredPattern(
        QString::fromStdString("lockscopectl: waiting for " + lockName() +
                               R"( failed \(attempt 1\): lock key .* was deleted .*; )"
                               R"(queueing again in [0-9]+\.[0-9] s)")));
    EXPECT_TRUE(retryLinePattern.match(QString::fromStdString(*said)).hasMatch()) << *said;
    ASSERT_TRUE(eventually([&] {
        auto q = queue();
        return q.size() == 2 && q[1].lease() != firstLease;
    })) << "did not queue again with a new lease: "
        << keysLeft();
    const std::string secondKey = queue()[1].key();
    EXPECT_EQ(secondKey, lockName() + "/" + leaseHex(queue()[1].lease()));
    EXPECT_FALSE(leaseListed(firstLease));

    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
    EXPECT_EQ(ours->readLine(10s), std::optional<std::string>(secondKey))
        << "the second attempt did not acquire";
    ours->signal(SIGINT);
    EXPECT_EQ(ours->wait(10s), 0);
}

TEST_F(LockscopectlLockIntegrationTest, WithNoRetryAWaiterWhoseLeaseIsRevokedExitsOne) {
    auto theirs = etcdctlLock();
    ASSERT_TRUE(theirs->readLine(10s));
    auto ours = lockscopectl({lockName(), "--no-retry"});
    ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
    revokeLease(queue()[1].lease());
    EXPECT_EQ(ours->wait(10s), 1);
    // Whichever tells first: the watch (our key was deleted) or a keepalive answer (the lease
    // is gone).
    bool said = false;
    while (auto line = ours->readLine(100ms)) {
        EXPECT_EQ(line->find("queueing again"), std::string::npos) << *line;
        said = said || line->find("was deleted") != std::string::npos ||
               line->find("expired or was revoked") != std::string::npos;
    }
    EXPECT_TRUE(said) << "lockscopectl did not say why it stopped waiting";
    EXPECT_EQ(queue().size(), 1u);
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
}

TEST_F(LockscopectlLockIntegrationTest, ACommandThatCannotRunExits127SaysWhyAndLeavesNoLease) {
    const std::string leasesBefore = etcdctl(cluster().endpointList(), {"lease", "list"}).output;
    // The parent says it (the child between fork and exec may not use stdio).
    auto ours = lockscopectl({lockName(), "--", "lockscope-no-such-command", "arg"});
    auto line = ours->readLine(10s);
    ASSERT_TRUE(line);
    EXPECT_EQ(*line, "lockscopectl: cannot run lockscope-no-such-command: not found in PATH");
    EXPECT_EQ(ours->wait(10s), 127);
    EXPECT_EQ(keysLeft(), "") << "a key outlived lockscopectl";
    EXPECT_EQ(etcdctl(cluster().endpointList(), {"lease", "list"}).output, leasesBefore)
        << "our lease outlived lockscopectl";
}

TEST_F(LockscopectlLockIntegrationTest, SigtermWhileHoldingLeavesNoKeyAndNoLease) {
    for (bool runsCommand : {false, true}) {
        auto ours = runsCommand
                        ? lockscopectl({lockName(), "--", "sh", "-c", "echo held; sleep 30"})
                        : lockscopectl({lockName()});
        ASSERT_TRUE(ours->readLine(10s));
        const auto q = queue();
        ASSERT_EQ(q.size(), 1u);
        ours->signal(SIGTERM);
        ASSERT_TRUE(ours->wait(10s));
        // Right after the process ends: no waiting for a lease to expire.
        EXPECT_EQ(keysLeft(), "") << "a key outlived lockscopectl";
        EXPECT_FALSE(leaseListed(q[0].lease())) << "our lease outlived lockscopectl";
    }
}

TEST_F(LockscopectlLockIntegrationTest, WaitsBehindEtcdctlAndSigtermLeavesNoKeyAndNoLease) {
    auto theirs = etcdctlLock();
    const auto theirKey = theirs->readLine(10s);
    ASSERT_TRUE(theirKey);
    for (int attempt = 0; attempt < 5; ++attempt) {
        auto ours = lockscopectl({lockName()});
        ASSERT_TRUE(eventually([&] { return queue().size() == 2; }));
        EXPECT_FALSE(ours->readLine(100ms)) << "acquired while etcdctl held the lock";
        const int64_t lease = queue()[1].lease();
        ours->signal(SIGTERM);
        EXPECT_EQ(ours->wait(10s), 1);
        EXPECT_EQ(keysLeft(), *theirKey + "\n\n") << "our waiting key outlived lockscopectl";
        EXPECT_FALSE(leaseListed(lease)) << "our lease outlived lockscopectl";
    }
    theirs->signal(SIGINT);
    EXPECT_EQ(theirs->wait(10s), 0);
}

TEST_F(LockscopectlLockIntegrationTest, BadArgumentsExitTwoWithAMessage) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{}, {"--ttl", "abc", "x"}, {"--bogus", "x"}}) {
        auto ours = lockscopectl(args);
        auto line = ours->readLine(5s);
        EXPECT_TRUE(line && line->find("lockscopectl:") != std::string::npos);
        EXPECT_EQ(ours->wait(5s), 2);
    }
    // A grace that is no duration, or that would stop the command while keepalives are merely
    // late, is refused naming the flag.
    for (const std::vector<std::string>& args : {std::vector<std::string>{"x", "--grace", "2"},
                                                 {"x", "--ttl", "10", "--grace=10s"},
                                                 {"--grace", "5001ms", "x", "--", "true"}}) {
        auto ours = lockscopectl(args);
        auto line = ours->readLine(5s);
        EXPECT_TRUE(line && line->find("--grace") != std::string::npos) << (line ? *line : "");
        EXPECT_EQ(ours->wait(5s), 2);
    }
}

TEST_F(LockscopectlLockIntegrationTest, HelpPrintsTheUsageAndExitsZero) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--help"}, {"-h"}, {lockName(), "--ttl", "5", "--help"}}) {
        auto ours = lockscopectl(args);
        std::string help;
        while (auto line = ours->readLine(5s))
            help += *line + "\n";
        EXPECT_EQ(ours->wait(5s), 0) << help;
        EXPECT_EQ(help.rfind("Usage: lockscopectl [connection flags] lock NAME", 0), 0u) << help;
        for (const char* said : {"--grace <duration>", "LOCKSCOPE_LOCK_KEY_B64", "NUL byte",
                                 "process group", "beyond reach"})
            EXPECT_NE(help.find(said), std::string::npos) << said << " missing:\n" << help;
    }
    EXPECT_TRUE(queue().empty()) << "--help took the lock";
}

} // namespace
