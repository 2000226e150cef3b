// The Go anchor's election commands (bench/go/main.go) speak the protocol its comment gives:
// what the interop tests of our elections against Go's stand on.
#include "support/go_anchor_fixture.h"
#include "support/waiting.h"

#include <csignal>

using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

class GoAnchorElectionIntegrationTest : public GoAnchorTest {
protected:
    std::string electionName() const { return prefix() + "election"; }
};

TEST_F(GoAnchorElectionIntegrationTest, CampaignProclaimResignAndObserve) {
    auto alice = goAnchor({"campaign", electionName(), "alice"});
    const auto leader = alice->awaitLine("leader", 10s);
    ASSERT_TRUE(leader && leader->size() == 2) << alice->error();
    EXPECT_EQ(leader->front().rfind(electionName() + "/", 0), 0u) << leader->front();
    EXPECT_EQ(keysUnder(electionName() + "/"), std::vector<std::string>{leader->front()});

    auto observer = goAnchor({"observe", electionName()});
    EXPECT_EQ(observer->awaitLine("observed", 10s),
              (std::vector<std::string>{leader->front(), "alice"}))
        << observer->error();
    auto bob = goAnchor({"campaign", electionName(), "bob"});
    ASSERT_TRUE(eventually([&] { return keysUnder(electionName() + "/").size() == 2; }));
    EXPECT_FALSE(bob->saw("leader", 300ms)) << "bob leads beside alice";

    ASSERT_TRUE(alice->process().writeLine("proclaim carol"));
    EXPECT_EQ(alice->awaitLine("proclaimed", 10s), std::vector<std::string>{"carol"});
    EXPECT_EQ(observer->awaitLine("observed", 10s),
              (std::vector<std::string>{leader->front(), "carol"}));

    ASSERT_TRUE(alice->process().writeLine("resign"));
    EXPECT_TRUE(alice->saw("resigned", 10s)) << alice->error();
    EXPECT_EQ(alice->process().wait(10s), 0);
    const auto next = bob->awaitLine("leader", 10s);
    ASSERT_TRUE(next && !next->empty()) << bob->error();
    const auto seen = observer->awaitLine("observed", 10s);
    EXPECT_EQ(seen, (std::vector<std::string>{next->front(), "bob"}));

    bob->process().signal(SIGINT); // resigns and revokes its session
    EXPECT_EQ(bob->process().wait(10s), 0);
    observer->process().signal(SIGINT);
    EXPECT_EQ(observer->process().wait(10s), 0);
    EXPECT_TRUE(eventually([&] { return keysUnder(electionName() + "/").empty(); }));
}

} // namespace
