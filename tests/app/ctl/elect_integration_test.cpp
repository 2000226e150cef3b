// `lockscopectl elect` against a real etcd and Debian's real `etcdctl elect`, both ways.
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "lockscopectl_test.h"
#include "support/waiting.h"

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockscopectlElectIntegrationTest : public LockscopectlTest {
protected:
    std::string electionName() const { return prefix() + "election"; }
    std::vector<std::string> candidates() { return keysUnder(electionName() + "/"); }
    std::unique_ptr<ChildProcess> etcdctlElect(const std::string& proposal) {
        return lockscope::test::etcdctlElect(cluster().endpointList(), electionName(), proposal);
    }
    std::unique_ptr<ChildProcess> etcdctlListen() {
        return std::make_unique<ChildProcess>(
            std::vector<std::string>{"etcdctl", "--endpoints=" + cluster().endpointList(), "elect",
                                     "-l", electionName()},
            std::vector<std::string>{"ETCDCTL_API=3"});
    }
    // The leases etcd still has.
    std::string leases() { return etcdctl(cluster().endpointList(), {"lease", "list"}).output; }
    // The next two lines: a leader's key and proposal, as both tools print them.
    static std::pair<std::string, std::string> leaderLines(ChildProcess& child) {
        auto key = child.readLine(10s);
        auto proposal = child.readLine(5s);
        return {key.value_or("<no key line>"), proposal.value_or("<no proposal line>")};
    }
};

TEST_F(LockscopectlElectIntegrationTest, OursWaitsBehindEtcdctlAndOurListenerPrintsItsProposal) {
    auto theirs = etcdctlElect("their-proposal");
    const auto [theirKey, theirProposal] = leaderLines(*theirs);
    EXPECT_EQ(theirProposal, "their-proposal");

    auto listener = lockscopectl({"elect", "-l", electionName()});
    EXPECT_EQ(leaderLines(*listener),
              (std::pair<std::string, std::string>{theirKey, "their-proposal"}));

    auto ours = lockscopectl({"elect", electionName(), "our-proposal"});
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    EXPECT_FALSE(ours->readLine(500ms)) << "ours led beside etcdctl";
    theirs->signal(SIGINT);
    const auto [ourKey, ourProposal] = leaderLines(*ours);
    EXPECT_EQ(ourKey.rfind(electionName() + "/", 0), 0u) << ourKey;
    EXPECT_NE(ourKey, theirKey);
    EXPECT_EQ(ourProposal, "our-proposal");
    EXPECT_EQ(leaderLines(*listener),
              (std::pair<std::string, std::string>{ourKey, "our-proposal"}));

    const std::string ourLease = ourKey.substr(ourKey.rfind('/') + 1);
    EXPECT_NE(leases().find(ourLease), std::string::npos);
    ours->signal(SIGINT);
    EXPECT_EQ(ours->wait(10s), 0);
    EXPECT_TRUE(eventually([&] { return candidates().empty(); }));
    EXPECT_EQ(leases().find(ourLease), std::string::npos) << "our lease outlived us";
    listener->signal(SIGINT);
    EXPECT_EQ(listener->wait(5s), 0);
}

TEST_F(LockscopectlElectIntegrationTest, EtcdctlWaitsBehindOursAndSeesOurProclaim) {
    // Our stdin is a FIFO, so the test can type a new proposal.
    const std::string fifo = ::testing::TempDir() + "elect-in-" + std::to_string(::getpid());
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto ours = std::make_unique<ChildProcess>(std::vector<std::string>{
        "sh", "-c", "exec \"$0\" --endpoints \"$1\" elect \"$2\" first < \"$3\"", LOCKSCOPECTL,
        cluster().endpointList(), electionName(), fifo});
    const int typing = ::open(fifo.c_str(), O_WRONLY); // once ours has opened it
    ASSERT_GE(typing, 0);
    const auto [ourKey, ourProposal] = leaderLines(*ours);
    EXPECT_EQ(ourProposal, "first");

    auto listener = etcdctlListen();
    EXPECT_EQ(leaderLines(*listener), (std::pair<std::string, std::string>{ourKey, "first"}));
    auto theirs = etcdctlElect("theirs");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));

    const std::string line = "second\n";
    ASSERT_EQ(::write(typing, line.data(), line.size()), static_cast<ssize_t>(line.size()));
    EXPECT_EQ(leaderLines(*listener), (std::pair<std::string, std::string>{ourKey, "second"}));
    EXPECT_FALSE(theirs->readLine(300ms)) << "etcdctl led while ours did";

    ours->signal(SIGTERM);
    EXPECT_EQ(ours->wait(10s), 0);
    const auto [theirKey, theirProposal] = leaderLines(*theirs);
    EXPECT_EQ(theirProposal, "theirs");
    EXPECT_EQ(leaderLines(*listener), (std::pair<std::string, std::string>{theirKey, "theirs"}));
    ::close(typing);
    ::unlink(fifo.c_str());
    theirs->signal(SIGINT);
    listener->signal(SIGINT);
    EXPECT_TRUE(theirs->wait(5s));
    EXPECT_TRUE(eventually([&] { return candidates().empty(); }));
}

TEST_F(LockscopectlElectIntegrationTest, InterruptedWhileWaitingSaysSoAndLeavesNoKeyOrLease) {
    auto theirs = etcdctlElect("leader");
    ASSERT_TRUE(theirs->readLine(10s));
    auto ours = lockscopectl({"elect", electionName(), "waiting"});
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    const std::string ourLease = candidates().back().substr(candidates().back().rfind('/') + 1);
    ours->signal(SIGINT);
    auto said = ours->readLine(10s);
    ASSERT_TRUE(said);
    EXPECT_EQ(*said, "lockscopectl: interrupted while campaigning in " + electionName() +
                         "; our candidacy was withdrawn");
    EXPECT_EQ(ours->wait(10s), 1);
    EXPECT_EQ(candidates().size(), 1u);
    EXPECT_EQ(leases().find(ourLease), std::string::npos) << "our lease outlived us";
    theirs->signal(SIGINT);
    EXPECT_TRUE(theirs->wait(5s));
}

TEST_F(LockscopectlElectIntegrationTest, LosingLeadershipExitsFourAndSaysSo) {
    auto ours = lockscopectl({"elect", electionName(), "p"});
    const auto [ourKey, proposal] = leaderLines(*ours);
    ASSERT_EQ(proposal, "p");
    auto deleted = etcdctl(cluster().endpointList(), {"del", ourKey});
    ASSERT_EQ(deleted.exitCode, 0) << deleted.output;
    auto said = ours->readLine(10s);
    ASSERT_TRUE(said);
    EXPECT_EQ(said->rfind("lockscopectl: leadership of " + electionName() + " lost: ", 0), 0u)
        << *said;
    EXPECT_EQ(ours->wait(10s), 4);
}

TEST_F(LockscopectlElectIntegrationTest, BadArgumentsExitTwoWithAMessage) {
    const auto [noProposal, noProposalLines] = runToEnd({"elect", electionName()});
    EXPECT_EQ(noProposal, 2);
    ASSERT_FALSE(noProposalLines.empty());
    EXPECT_EQ(noProposalLines.front(), "lockscopectl elect: a NAME and a PROPOSAL are needed, "
                                       "like: elect /elections/db host-a");
    const auto [listenExtra, listenLines] = runToEnd({"elect", "-l", electionName(), "x"});
    EXPECT_EQ(listenExtra, 2);
    ASSERT_FALSE(listenLines.empty());
    EXPECT_EQ(listenLines.front(), "lockscopectl elect: --listen takes one NAME and no proposal");
    const auto [badName, badNameLines] = runToEnd({"elect", "bad\\q", "x"});
    EXPECT_EQ(badName, 2);
    ASSERT_FALSE(badNameLines.empty());
    EXPECT_EQ(badNameLines.front().rfind("lockscopectl elect: NAME: ", 0), 0u)
        << badNameLines.front();
    EXPECT_TRUE(candidates().empty());
}

} // namespace
