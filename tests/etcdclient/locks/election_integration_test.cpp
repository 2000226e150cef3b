// Election and LeaderObserver against a real etcd, against Debian's real `etcdctl elect`, and
// against Go's own concurrency.Election in the Go anchor (bench/go/main.go).
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/election.h"
#include "etcdclient/locks/leader_observer.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/go_anchor_fixture.h"
#include "support/waiting.h"

#include <csignal>
#include <future>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

std::future<Error> campaignAsync(Election& election, std::string proposal) {
    auto promise = std::make_shared<std::promise<Error>>();
    election.campaign(std::move(proposal), [promise](const Error& e) { promise->set_value(e); });
    return promise->get_future();
}

// What a LeaderObserver reported, for the test thread to read.
struct SeenLeaders {
    std::mutex mutex;
    std::vector<LeaderObserver::Leader> leaders;
    std::optional<Error> ended;

    std::vector<std::string> proposals() {
        std::lock_guard lock(mutex);
        std::vector<std::string> out;
        for (const auto& leader : leaders)
            out.push_back(leader.proposal);
        return out;
    }
};

class ElectionIntegrationTest : public EtcdTest {
protected:
    std::string electionName() const { return prefix() + "election"; }
    std::vector<std::string> candidates() { return keysUnder(electionName() + "/"); }
    std::string valueOf(const std::string& key) {
        pb::RangeRequest r;
        r.set_key(key);
        auto got = call(*client, &Client::range, r);
        EXPECT_TRUE(got) << got.error().message;
        return got && got->kvs_size() > 0 ? got->kvs(0).value() : std::string("<none>");
    }
    std::shared_ptr<LeaderObserver> observe(SeenLeaders& seen) {
        auto observer = LeaderObserver::create(
            *client, electionName(),
            [&seen](const LeaderObserver::Leader& leader) {
                std::lock_guard lock(seen.mutex);
                seen.leaders.push_back(leader);
            },
            [&seen](const Error& e) {
                std::lock_guard lock(seen.mutex);
                seen.ended = e;
            });
        observer->start();
        return observer;
    }
};

TEST_F(ElectionIntegrationTest, TheFirstCandidateLeadsWithItsProposalOnItsLease) {
    auto session = createSession(*client, 10);
    auto election = Election::create(*client, session, electionName());
    ASSERT_TRUE(campaignNow(*election, "alpha").ok());
    EXPECT_TRUE(election->leader());
    EXPECT_EQ(election->key(), electionName() + "/" + leaseHex(session->leaseId()));
    EXPECT_EQ(valueOf(election->key()), "alpha");
    EXPECT_EQ(election->proposal(), "alpha");
    ASSERT_TRUE(resignNow(*election).value());
    EXPECT_FALSE(election->leader());
    EXPECT_TRUE(candidates().empty());
}

TEST_F(ElectionIntegrationTest, ASecondCandidateLeadsOnceTheFirstResigns) {
    auto first = Election::create(*client, createSession(*client, 10), electionName());
    auto second = Election::create(*client, createSession(*client, 10), electionName());
    ASSERT_TRUE(campaignNow(*first, "one").ok());
    auto waiting = campaignAsync(*second, "two");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout) << "two leaders at once";
    EXPECT_FALSE(second->leader());
    ASSERT_TRUE(resignNow(*first).value());
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_TRUE(second->leader());
    ASSERT_TRUE(resignNow(*second).value());
}

TEST_F(ElectionIntegrationTest, ProclaimChangesTheValueOnlyWhileLeading) {
    auto leader = Election::create(*client, createSession(*client, 10), electionName());
    auto waiter = Election::create(*client, createSession(*client, 10), electionName());
    ASSERT_TRUE(campaignNow(*leader, "v1").ok());
    auto waiting = campaignAsync(*waiter, "w1");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));

    ASSERT_TRUE(proclaimNow(*leader, "v2").value());
    EXPECT_EQ(valueOf(leader->key()), "v2");
    EXPECT_EQ(leader->proposal(), "v2");
    EXPECT_FALSE(proclaimNow(*waiter, "w2").value()) << "a waiting candidate proclaimed";
    EXPECT_EQ(valueOf(waiter->key()), "w1");

    ASSERT_TRUE(resignNow(*leader).value());
    EXPECT_FALSE(proclaimNow(*leader, "v3").value()) << "proclaimed after resigning";
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    ASSERT_TRUE(resignNow(*waiter).value());
    EXPECT_TRUE(candidates().empty());
}

TEST_F(ElectionIntegrationTest, CancellingAWaitingCampaignRemovesItsKey) {
    auto leader = Election::create(*client, createSession(*client, 10), electionName());
    auto waiter = Election::create(*client, createSession(*client, 10), electionName());
    ASSERT_TRUE(campaignNow(*leader, "l").ok());
    auto waiting = campaignAsync(*waiter, "w");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    waiter->cancel();
    ASSERT_EQ(waiting.wait_for(5s), std::future_status::ready);
    EXPECT_EQ(waiting.get().code, ErrorCode::Cancelled);
    ASSERT_TRUE(eventually([&] { return candidates().size() == 1; }));
    EXPECT_EQ(candidates().front(), leader->key());
    ASSERT_TRUE(resignNow(*leader).value());
}

TEST_F(ElectionIntegrationTest, ASecondCampaignWhileCandidateIsRefused) {
    auto election = Election::create(*client, createSession(*client, 10), electionName());
    ASSERT_TRUE(campaignNow(*election, "a").ok());
    const Error again = campaignNow(*election, "b");
    EXPECT_EQ(again.code, ErrorCode::FailedPrecondition) << again.message;
    EXPECT_EQ(valueOf(election->key()), "a");
    ASSERT_TRUE(resignNow(*election).value());
    // Once resigned, a new campaign runs with the new proposal.
    ASSERT_TRUE(campaignNow(*election, "c").ok());
    EXPECT_EQ(valueOf(election->key()), "c");
    ASSERT_TRUE(resignNow(*election).value());
}

TEST_F(ElectionIntegrationTest, LeadershipIsReportedLostWhenTheKeyIsDeleted) {
    auto election = Election::create(*client, createSession(*client, 10), electionName());
    std::promise<Error> lost;
    election->onLost([&](const Error& e) { lost.set_value(e); });
    ASSERT_TRUE(campaignNow(*election, "x").ok());
    pb::DeleteRangeRequest del;
    del.set_key(election->key());
    ASSERT_TRUE(call(*client, &Client::deleteRange, del));
    auto f = lost.get_future();
    ASSERT_EQ(f.wait_for(5s), std::future_status::ready);
    EXPECT_EQ(f.get().code, ErrorCode::LockLost);
    EXPECT_FALSE(election->leader());
}

TEST_F(ElectionIntegrationTest, TheObserverReportsEachLeaderAndEachProclaim) {
    SeenLeaders seen;
    auto observer = observe(seen);
    auto first = Election::create(*client, createSession(*client, 10), electionName());
    auto second = Election::create(*client, createSession(*client, 10), electionName());
    ASSERT_TRUE(campaignNow(*first, "p1").ok());
    ASSERT_TRUE(eventually([&] { return seen.proposals().size() == 1; }));
    auto waiting = campaignAsync(*second, "p2");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    ASSERT_TRUE(proclaimNow(*first, "p1b").value());
    ASSERT_TRUE(resignNow(*first).value());
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(eventually([&] { return seen.proposals().size() == 3; }));
    EXPECT_EQ(seen.proposals(), (std::vector<std::string>{"p1", "p1b", "p2"}));
    {
        std::lock_guard lock(seen.mutex);
        EXPECT_EQ(seen.leaders.back().key, second->key());
        EXPECT_FALSE(seen.ended);
    }
    observer->stop();
    ASSERT_TRUE(resignNow(*second).value());
}

TEST_F(ElectionIntegrationTest, TheObserverReportsALeaderThatWasThereBeforeIt) {
    auto leader = Election::create(*client, createSession(*client, 10), electionName());
    ASSERT_TRUE(campaignNow(*leader, "already").ok());
    SeenLeaders seen;
    auto observer = observe(seen);
    ASSERT_TRUE(eventually([&] { return seen.proposals().size() == 1; }));
    EXPECT_EQ(seen.proposals().front(), "already");
    observer->stop();
    ASSERT_TRUE(resignNow(*leader).value());
}

TEST_F(ElectionIntegrationTest, OursWaitsForEtcdctlElectAndEtcdctlFollowsOurs) {
    auto theirs = etcdctlElect(cluster().endpointList(), electionName(), "from-etcdctl");
    auto key = theirs->readLine(10s);
    ASSERT_TRUE(key) << "etcdctl elect did not lead";
    EXPECT_EQ(key->rfind(electionName() + "/", 0), 0u) << *key;
    EXPECT_EQ(theirs->readLine(5s).value_or(""), "from-etcdctl");

    SeenLeaders seen;
    auto observer = observe(seen);
    ASSERT_TRUE(eventually([&] { return seen.proposals().size() == 1; }));
    EXPECT_EQ(seen.proposals().front(), "from-etcdctl");

    auto ours = Election::create(*client, createSession(*client, 10), electionName());
    auto waiting = campaignAsync(*ours, "from-us");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout) << "led beside etcdctl";
    theirs->signal(SIGINT); // etcdctl resigns and revokes its lease
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_EQ(theirs->wait(5s), 0);

    // Now etcdctl campaigns behind ours and leads once ours resigns.
    auto next = etcdctlElect(cluster().endpointList(), electionName(), "etcdctl-again");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    EXPECT_FALSE(next->readLine(500ms)) << "etcdctl led while ours did";
    ASSERT_TRUE(resignNow(*ours).value());
    EXPECT_TRUE(next->readLine(10s)) << "etcdctl did not lead after ours resigned";
    EXPECT_EQ(next->readLine(5s).value_or(""), "etcdctl-again");
    ASSERT_TRUE(eventually([&] { return seen.proposals().size() == 3; }));
    EXPECT_EQ(seen.proposals(),
              (std::vector<std::string>{"from-etcdctl", "from-us", "etcdctl-again"}));
    observer->stop();
    next->signal(SIGINT);
    EXPECT_EQ(next->wait(5s), 0);
    EXPECT_TRUE(eventually([&] { return candidates().empty(); }));
}

using ElectionGoInteropTest = WithGoAnchor<ElectionIntegrationTest>;

// Go's Election leads: ours waits behind it, our observer follows its proclaims, and ours leads
// once Go resigns.
TEST_F(ElectionGoInteropTest, OursWaitsForGosLeaderAndFollowsItsProclaims) {
    auto go = goAnchor({"campaign", electionName(), "from-go"});
    const auto goLeads = go->awaitLine("leader", 10s);
    ASSERT_TRUE(goLeads && goLeads->size() == 2) << go->error();
    SeenLeaders seen;
    auto observer = observe(seen);
    ASSERT_TRUE(eventually([&] { return seen.proposals().size() == 1; }));
    EXPECT_EQ(seen.proposals().front(), "from-go");

    auto ours = Election::create(*client, createSession(*client, 10), electionName());
    auto waiting = campaignAsync(*ours, "from-us");
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout) << "led beside Go's leader";
    EXPECT_FALSE(proclaimNow(*ours, "not-yet").value()) << "proclaimed while Go leads";

    ASSERT_TRUE(go->process().writeLine("proclaim go-again"));
    EXPECT_EQ(go->awaitLine("proclaimed", 10s), std::vector<std::string>{"go-again"});
    EXPECT_TRUE(eventually([&] { return seen.proposals().size() == 2; }));

    ASSERT_TRUE(go->process().writeLine("resign"));
    EXPECT_TRUE(go->saw("resigned", 10s)) << go->error();
    ASSERT_EQ(waiting.wait_for(10s), std::future_status::ready);
    EXPECT_TRUE(waiting.get().ok());
    EXPECT_TRUE(ours->leader());
    ASSERT_TRUE(eventually([&] { return seen.proposals().size() == 3; }));
    EXPECT_EQ(seen.proposals(), (std::vector<std::string>{"from-go", "go-again", "from-us"}));
    EXPECT_EQ(go->process().wait(10s), 0);
    observer->stop();
    ASSERT_TRUE(resignNow(*ours).value());
    EXPECT_TRUE(eventually([&] { return candidates().empty(); }));
}

// Ours leads: Go's observer sees our proposal and our proclaim, Go's candidate waits behind
// ours and leads once ours resigns.
TEST_F(ElectionGoInteropTest, GosCandidateWaitsForOursAndGosObserverFollowsOurs) {
    auto ours = Election::create(*client, createSession(*client, 10), electionName());
    ASSERT_TRUE(campaignNow(*ours, "from-us").ok());
    auto goObserver = goAnchor({"observe", electionName()});
    EXPECT_EQ(goObserver->awaitLine("observed", 10s),
              (std::vector<std::string>{ours->key(), "from-us"}))
        << goObserver->error();

    auto goCandidate = goAnchor({"campaign", electionName(), "from-go"});
    ASSERT_TRUE(eventually([&] { return candidates().size() == 2; }));
    EXPECT_FALSE(goCandidate->saw("leader", 300ms)) << "Go led beside ours";
    ASSERT_TRUE(proclaimNow(*ours, "ours-again").value());
    EXPECT_EQ(goObserver->awaitLine("observed", 10s),
              (std::vector<std::string>{ours->key(), "ours-again"}));

    ASSERT_TRUE(resignNow(*ours).value());
    const auto goLeads = goCandidate->awaitLine("leader", 10s);
    ASSERT_TRUE(goLeads && !goLeads->empty()) << goCandidate->error();
    EXPECT_EQ(goObserver->awaitLine("observed", 10s),
              (std::vector<std::string>{goLeads->front(), "from-go"}));

    goCandidate->process().signal(SIGINT); // resigns and revokes its session
    EXPECT_EQ(goCandidate->process().wait(10s), 0);
    goObserver->process().signal(SIGINT);
    EXPECT_EQ(goObserver->process().wait(10s), 0);
    EXPECT_TRUE(eventually([&] { return candidates().empty(); }));
}

} // namespace
