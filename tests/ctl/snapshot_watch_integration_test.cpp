#include "etcdclient/blocking.h"
#include "lockscopectl_test.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <csignal>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

class LockscopectlSnapshotWatchIntegrationTest : public LockscopectlTest {
protected:
    void putRaw(const std::string& key) {
        pb::PutRequest put;
        put.set_key(key);
        ASSERT_TRUE(call(*client, &Client::put, put));
    }
};

TEST_F(LockscopectlSnapshotWatchIntegrationTest, SnapshotJsonShowsHolderQueueTtlsAndAnomalies) {
    const std::string name = prefix() + "jobs";
    auto holder = etcdctlLock(name);
    auto holderKey = holder->readLine(10s);
    ASSERT_TRUE(holderKey);
    auto waiter = etcdctlLock(name);
    ASSERT_TRUE(eventually([&] {
        pb::RangeRequest r;
        r.set_key(name + "/");
        r.set_range_end(name + "0"); // every key under "<name>/"
        r.set_count_only(true);
        auto got = call(*client, &Client::range, r);
        return got && got->count() == 2;
    })) << "the second etcdctl never queued";
    putRaw(name + "/stray"); // no lease, not a lock key: blocks the queue forever
    const std::string binaryName = prefix() + std::string("bin\xff", 4);
    putRaw(binaryName + "/1");

    auto snapshot = lockscopectl({"snapshot", prefix(), "--json"});
    auto line = snapshot->readLine(10s);
    ASSERT_TRUE(line);
    EXPECT_EQ(snapshot->wait(10s), 0);
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(*line));
    ASSERT_TRUE(doc.isObject()) << *line;
    EXPECT_GT(doc["revision"].toInteger(), 0);
    const QJsonArray locks = doc["locks"].toArray();
    ASSERT_EQ(locks.size(), 2) << *line;
    QJsonObject jobs;
    bool sawEscapedBinary = false;
    for (const auto& l : locks) {
        if (l.toObject()["name"].toString().toStdString() == name)
            jobs = l.toObject();
        sawEscapedBinary = sawEscapedBinary || l.toObject()["name"].toString().endsWith("bin\\xff");
    }
    EXPECT_TRUE(sawEscapedBinary) << "a binary lock name must be shown escaped";
    ASSERT_FALSE(jobs.isEmpty());
    const QJsonObject holderJson = jobs["holder"].toObject();
    EXPECT_EQ(holderJson["key"].toString().toStdString(), *holderKey);
    EXPECT_EQ(holderJson["granted_ttl"].toInt(), 10);
    EXPECT_GT(holderJson["ttl"].toInt(), 0);
    EXPECT_TRUE(holderJson["key"].toString().endsWith("/" + holderJson["lease_hex"].toString()));
    const QJsonArray waiters = jobs["waiters"].toArray();
    ASSERT_EQ(waiters.size(), 2) << *line;
    EXPECT_EQ(waiters[0]["position"].toInt(), 1);
    EXPECT_EQ(waiters[0]["waits_for"].toString().toStdString(), *holderKey);
    EXPECT_EQ(waiters[1]["key"].toString().toStdString(), name + "/stray");
    QStringList kinds;
    for (const auto& a : doc["anomalies"].toArray())
        if (a.toObject()["key"].toString().toStdString() == name + "/stray")
            kinds << a.toObject()["kind"].toString();
    EXPECT_TRUE(kinds.contains("no_lease")) << kinds.join(',').toStdString();
    EXPECT_TRUE(kinds.contains("not_a_lock_key"));

    auto table = lockscopectl({"snapshot", prefix()});
    auto first = table->readLine(10s);
    ASSERT_TRUE(first);
    EXPECT_NE(first->find("2 lock(s)"), std::string::npos) << *first;
    EXPECT_EQ(table->wait(10s), 0);
}

TEST_F(LockscopectlSnapshotWatchIntegrationTest, WatchPrintsOneJsonLinePerLockEvent) {
    const std::string name = prefix() + "jobs";
    auto watch = lockscopectl({"watch", prefix(), "--json"});
    ASSERT_EQ(watch->readLine(10s), std::optional<std::string>("lockscopectl: watching"));
    auto holder = etcdctlLock(name);
    auto key = holder->readLine(10s);
    ASSERT_TRUE(key);
    holder->signal(SIGINT);
    std::vector<std::string> events;
    for (int i = 0; i < 3; ++i) {
        auto line = watch->readLine(10s);
        ASSERT_TRUE(line) << "event " << i << " missing";
        const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(*line));
        ASSERT_TRUE(doc.isObject()) << *line;
        EXPECT_EQ(doc["key"].toString().toStdString(), *key);
        EXPECT_FALSE(doc["recovered"].toBool());
        events.push_back(doc["event"].toString().toStdString());
    }
    EXPECT_EQ(events, (std::vector<std::string>{"enqueued", "acquired", "released"}));
    watch->signal(SIGINT);
    EXPECT_EQ(watch->wait(10s), 0);
}

TEST_F(LockscopectlSnapshotWatchIntegrationTest, MissingPrefixIsAUsageError) {
    auto snapshot = lockscopectl({"snapshot"});
    auto line = snapshot->readLine(5s);
    ASSERT_TRUE(line);
    EXPECT_NE(line->find("PREFIX"), std::string::npos);
    EXPECT_EQ(snapshot->wait(5s), 2);
}

} // namespace
