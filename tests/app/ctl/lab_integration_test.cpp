#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "process/child_process.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <csignal>
#include <thread>

using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockscopectlLabIntegrationTest : public EtcdTest {
protected:
    std::unique_ptr<ChildProcess> lab(const std::string& lock, const std::string& duration) {
        return std::make_unique<ChildProcess>(std::vector<std::string>{
            LOCKSCOPECTL, "--endpoints", cluster().endpointList(), "lab", "--workers", "8",
            "--hold", "20ms", "--think", "5ms", "--ttl", "5", "--crash", "0.2", "--duration",
            duration, "--locks", lock, "--json"});
    }
    // Right after the lab ends, as the real etcdctl sees it: none of its keys, and no lease at
    // all (nothing else in this suite holds one).
    void expectNothingLeftUnder(const std::string& lock) {
        const auto keys =
            etcdctl(cluster().endpointList(), {"get", "--prefix", "--keys-only", lock + "/"});
        EXPECT_EQ(keys.output, "") << "the lab left lock keys behind";
        const auto leases = etcdctl(cluster().endpointList(), {"lease", "list"});
        EXPECT_EQ(leases.output, "found 0 leases\n") << "the lab left leases behind";
    }
};

TEST_F(LockscopectlLabIntegrationTest, RunsForTheDurationAndReportsAsJsonLeavingNoKey) {
    const std::string lock = prefix() + "lab-lock";
    ChildProcess lab({LOCKSCOPECTL, "--endpoints", cluster().endpointList(), "lab", "--workers",
                      "8", "--hold", "20ms", "--think", "5ms", "--duration", "2s", "--locks", lock,
                      "--json"});
    auto line = lab.readLine(30s);
    ASSERT_TRUE(line);
    EXPECT_EQ(lab.wait(10s), 0);
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(*line));
    ASSERT_TRUE(doc.isObject()) << *line;
    EXPECT_GT(doc["acquisitions"].toInt(), 10);
    EXPECT_GE(doc["seconds"].toDouble(), 1.9);
    EXPECT_EQ(doc["overlaps"].toArray().size(), 0);
    EXPECT_EQ(doc["writes_without_lock"].toInt(), 0);
    etcd::pb::RangeRequest r;
    r.set_key(lock + "/");
    r.set_range_end(etcd::prefixRangeEnd(lock + "/"));
    r.set_count_only(true);
    auto left = etcd::call(*client, &etcd::Client::range, r);
    ASSERT_TRUE(left);
    EXPECT_EQ(left->count(), 0) << "the lab left lock keys behind";
}

TEST_F(LockscopectlLabIntegrationTest, EndingByDurationOrSigtermLeavesNoKeyAndNoLease) {
    // Crashing holders orphan their leases: the lab's stop revokes those too.
    const std::string lock = prefix() + "lab-lock";
    auto timed = lab(lock, "2s");
    auto line = timed->readLine(30s);
    ASSERT_TRUE(line);
    EXPECT_EQ(timed->wait(10s), 0);
    EXPECT_GT(QJsonDocument::fromJson(QByteArray::fromStdString(*line))["crashes"].toInt(), 0)
        << *line;
    expectNothingLeftUnder(lock);

    auto stopped = lab(lock, "60s");
    std::this_thread::sleep_for(1500ms);
    stopped->signal(SIGTERM);
    ASSERT_TRUE(stopped->readLine(30s)) << "no report after SIGTERM";
    EXPECT_EQ(stopped->wait(10s), 0);
    expectNothingLeftUnder(lock);
}

TEST_F(LockscopectlLabIntegrationTest, AnUnreachableClusterExitsOneWithTheError) {
    ChildProcess lab({LOCKSCOPECTL, "--endpoints", "127.0.0.1:1", "--dial-timeout", "1s", "lab",
                      "--duration", "2s"});
    auto line = lab.readLine(10s);
    ASSERT_TRUE(line) << "silent";
    EXPECT_NE(line->find("lockscopectl lab: cannot start: unavailable"), std::string::npos)
        << *line;
    EXPECT_EQ(lab.wait(10s), 1);
}

TEST_F(LockscopectlLabIntegrationTest, OutOfRangeSettingsAreUsageErrors) {
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--workers", "0"}, {"--stall", "2"}, {"--hold", "soon"}}) {
        std::vector<std::string> argv = {LOCKSCOPECTL, "--endpoints", cluster().endpointList(),
                                         "lab"};
        argv.insert(argv.end(), bad.begin(), bad.end());
        ChildProcess lab(argv);
        auto line = lab.readLine(5s);
        EXPECT_TRUE(line && line->find("lockscopectl lab:") != std::string::npos);
        EXPECT_EQ(lab.wait(5s), 2);
    }
}

} // namespace
