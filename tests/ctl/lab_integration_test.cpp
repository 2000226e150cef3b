#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "process/child_process.h"
#include "support/etcd_fixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockscopectlLabIntegrationTest : public EtcdTest {};

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
