// lockscopectl blockers against Go's own concurrency.Mutex (the Go anchor: one session holding
// a lock while it waits for the next, as a Go client does) and real etcdctl, on a real etcd.
#include "lockscopectl_test.h"
#include "support/etcdctl.h"
#include "support/go_anchor_fixture.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <csignal>

using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

class BlockersIntegrationTest : public WithGoAnchor<LockscopectlTest> {
protected:
    // `blockers --json PREFIX`: its exit code and its report.
    std::pair<std::optional<int>, QJsonObject> blockers(const std::string& prefix) {
        const auto [code, lines] = runToEnd({"blockers", "--json", prefix});
        EXPECT_EQ(lines.size(), 1u);
        return {code, lines.empty()
                          ? QJsonObject()
                          : QJsonDocument::fromJson(QByteArray::fromStdString(lines[0])).object()};
    }
    // A Go session holding `names` in turn: each after the one before is held ("next").
    std::unique_ptr<lockscope::process::GoAnchor> goSession(std::vector<std::string> names) {
        names.insert(names.begin(), "mutexes");
        return goAnchor(std::move(names));
    }
    // The lease (hex) of a Go session, from its first line.
    static std::string sessionOf(lockscope::process::GoAnchor& go) {
        const auto line = go.awaitLine("session", 10s);
        EXPECT_TRUE(line && !line->empty()) << go.error();
        return line && !line->empty() ? line->front() : std::string();
    }
    std::size_t keysUnderNow(const std::string& prefix) { return keysUnder(prefix).size(); }
};

TEST_F(BlockersIntegrationTest,
       TwoGoSessionsWaitingForEachOtherAreADeadlockUntilTheNamedLeaseGoes) {
    auto a = goSession({"/dl/1", "/dl/2"});
    const std::string leaseA = sessionOf(*a);
    ASSERT_FALSE(expectHeld(*a).empty());
    auto b = goSession({"/dl/2", "/dl/1"});
    const std::string leaseB = sessionOf(*b);
    ASSERT_FALSE(expectHeld(*b).empty());
    ASSERT_TRUE(a->process().writeLine("next"));
    ASSERT_TRUE(b->process().writeLine("next"));
    ASSERT_TRUE(eventually([&] { return keysUnderNow("/dl/") == 4; }));

    auto [code, report] = blockers("/dl/");
    EXPECT_EQ(code, 5) << "a deadlock exits 5";
    const QJsonArray deadlocks = report["deadlocks"].toArray();
    ASSERT_EQ(deadlocks.size(), 1);
    const QJsonObject deadlock = deadlocks[0].toObject();
    QStringList sessions;
    for (const auto& session : deadlock["sessions"].toArray())
        sessions << session.toObject()["lease_hex"].toString();
    sessions.sort();
    QStringList expected{QString::fromStdString(leaseA), QString::fromStdString(leaseB)};
    expected.sort();
    EXPECT_EQ(sessions, expected);
    EXPECT_EQ(deadlock["waits"].toArray().size(), 2);
    EXPECT_EQ(deadlock["break_loses_held"].toInt(), 1);
    EXPECT_TRUE(report["root_blockers"].toArray().isEmpty());

    // Revoking the lease it names ends the cycle: the other session takes both locks.
    const std::string breakBy =
        deadlock["break_by"].toObject()["lease_hex"].toString().toStdString();
    const auto revoked = etcdctl(cluster().endpointList(), {"lease", "revoke", breakBy});
    ASSERT_EQ(revoked.exitCode, 0) << revoked.output;
    auto& survivor = breakBy == leaseA ? *b : *a;
    EXPECT_FALSE(expectHeld(survivor).empty()) << "the survivor never got its second lock";
    std::tie(code, report) = blockers("/dl/");
    EXPECT_EQ(code, 0);
    EXPECT_TRUE(report["deadlocks"].toArray().isEmpty());
    EXPECT_EQ(report["sessions_waiting"].toInt(), 0);
    releaseGo(survivor);
    EXPECT_TRUE(eventually([&] { return keysUnderNow("/dl/") == 0; })) << "keys left behind";
}

TEST_F(BlockersIntegrationTest, AChainOfFiveSessionsNamesItsRootAndTheRootMovesOnAsItLetsGo) {
    // Session i holds /ch/i and then waits for /ch/(i-1): session 1 blocks all four others.
    std::vector<std::unique_ptr<lockscope::process::GoAnchor>> chain;
    std::vector<std::string> leases;
    for (int i = 1; i <= 5; ++i) {
        std::vector<std::string> names{"/ch/" + std::to_string(i)};
        if (i > 1)
            names.push_back("/ch/" + std::to_string(i - 1));
        chain.push_back(goSession(names));
        leases.push_back(sessionOf(*chain.back()));
        ASSERT_FALSE(expectHeld(*chain.back()).empty());
    }
    for (int i = 1; i < 5; ++i)
        ASSERT_TRUE(chain[i]->process().writeLine("next"));
    ASSERT_TRUE(eventually([&] { return keysUnderNow("/ch/") == 9; }));

    auto [code, report] = blockers("/ch/");
    EXPECT_EQ(code, 0);
    QJsonArray roots = report["root_blockers"].toArray();
    ASSERT_EQ(roots.size(), 1);
    EXPECT_EQ(roots[0].toObject()["session"].toObject()["lease_hex"].toString().toStdString(),
              leases[0]);
    EXPECT_EQ(roots[0].toObject()["transitive"].toInt(), 4);
    EXPECT_EQ(roots[0].toObject()["direct"].toInt(), 1);
    EXPECT_EQ(roots[0].toObject()["waits"].toArray().size(), 4);
    EXPECT_FALSE(roots[0].toObject()["unrenewed"].toBool()) << "Go keeps its lease alive";

    // Session 1 lets go: etcd hands /ch/1 to session 2, now the root of 3, 4 and 5.
    releaseGo(*chain[0]);
    EXPECT_FALSE(expectHeld(*chain[1]).empty());
    std::tie(code, report) = blockers("/ch/");
    roots = report["root_blockers"].toArray();
    ASSERT_EQ(roots.size(), 1);
    EXPECT_EQ(roots[0].toObject()["session"].toObject()["lease_hex"].toString().toStdString(),
              leases[1]);
    EXPECT_EQ(roots[0].toObject()["transitive"].toInt(), 3);
    EXPECT_EQ(roots[0].toObject()["held"].toInt(), 1) << "/ch/2: /ch/1 has nobody waiting";
    // The rest let go in turn, each once it holds both of its locks.
    for (int i = 1; i < 5; ++i) {
        if (i > 1) {
            EXPECT_FALSE(expectHeld(*chain[i]).empty());
        }
        releaseGo(*chain[i]);
    }
    EXPECT_TRUE(eventually([&] { return keysUnderNow("/ch/") == 0; })) << "keys left behind";
}

// The lab's deadlock demo makes a real one: two workers, each holding its lock and taking the
// other's on the same session. Revoking the lease blockers names breaks it; the lab leaves no
// key behind.
TEST_F(BlockersIntegrationTest, TheLabsDeadlockDemoIsARealDeadlockThatTheNamedLeaseBreaks) {
    auto lab =
        lockscopectl({"lab", "--deadlock", "--workers", "2", "--locks", "/lab-dl/a,/lab-dl/b",
                      "--hold", "100ms", "--think", "0", "--ttl", "5", "--duration", "12s"});
    QJsonObject report;
    ASSERT_TRUE(eventually(
        [&] {
            std::optional<int> code;
            std::tie(code, report) = blockers("/lab-dl/");
            return code == 5;
        },
        10s))
        << "the lab's workers never deadlocked";
    const QJsonArray deadlocks = report["deadlocks"].toArray();
    ASSERT_EQ(deadlocks.size(), 1);
    EXPECT_EQ(deadlocks[0].toObject()["sessions"].toArray().size(), 2);
    const std::string breakBy =
        deadlocks[0].toObject()["break_by"].toObject()["lease_hex"].toString().toStdString();
    const auto revoked = etcdctl(cluster().endpointList(), {"lease", "revoke", breakBy});
    ASSERT_EQ(revoked.exitCode, 0) << revoked.output;
    // The other worker now holds both and goes on; the revoked one starts over, and may well
    // deadlock again: but not on the lease that was revoked.
    EXPECT_TRUE(eventually([&] {
        const auto [code, after] = blockers("/lab-dl/");
        for (const auto& deadlock : after["deadlocks"].toArray())
            for (const auto& session : deadlock.toObject()["sessions"].toArray())
                if (session.toObject()["lease_hex"].toString().toStdString() == breakBy)
                    return false;
        return true;
    }));
    EXPECT_EQ(lab->wait(30s), 0);
    EXPECT_TRUE(eventually([&] { return keysUnderNow("/lab-dl/") == 0; })) << "keys left behind";
}

TEST_F(BlockersIntegrationTest, EtcdctlSessionsOnePerLockNeverFormACycleAndTheTextSaysWhoBlocks) {
    std::vector<std::unique_ptr<lockscope::process::ChildProcess>> locks;
    for (const char* name : {"/mx/a", "/mx/a", "/mx/a", "/mx/b", "/mx/b"})
        locks.push_back(etcdctlLock(name));
    ASSERT_TRUE(eventually([&] { return keysUnderNow("/mx/") == 5; }));

    auto [code, report] = blockers("/mx/");
    EXPECT_EQ(code, 0);
    EXPECT_TRUE(report["deadlocks"].toArray().isEmpty());
    EXPECT_EQ(report["sessions_waiting"].toInt(), 3);
    const QJsonArray roots = report["root_blockers"].toArray();
    ASSERT_EQ(roots.size(), 2);
    EXPECT_EQ(roots[0].toObject()["transitive"].toInt(), 2) << "the holder of /mx/a blocks two";
    EXPECT_EQ(roots[1].toObject()["transitive"].toInt(), 1);

    const auto [textCode, text] = runToEnd({"blockers", "/mx/"});
    EXPECT_EQ(textCode, 0);
    ASSERT_FALSE(text.empty());
    EXPECT_NE(text[0].find("3 session"), std::string::npos) << text[0];
    EXPECT_EQ(
        std::count_if(text.begin(), text.end(),
                      [](const std::string& line) { return line.rfind("root blocker", 0) == 0; }),
        2);
    // (etcdctl lock leaves a waiter's key to its lease when interrupted: not ours to check.)
    for (auto& lock : locks)
        lock->signal(SIGINT);
    for (auto& lock : locks)
        EXPECT_TRUE(lock->wait(10s).has_value());
}

} // namespace
