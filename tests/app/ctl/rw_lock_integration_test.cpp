// `lockscopectl lock --read|--write` against etcd 3.4's RWMutex recipe itself, run in the Go
// anchor (bench/go/main.go), both ways.
#include "lockscopectl_test.h"
#include "support/go_anchor_fixture.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <csignal>

using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

class LockscopectlRwLockIntegrationTest : public WithGoAnchor<LockscopectlTest> {
protected:
    std::string lockName() const { return prefix() + "rw"; }
    std::size_t queueLength() { return keysUnder(lockName() + "/").size(); }
    std::unique_ptr<lockscope::process::ChildProcess> lock(const char* mode) {
        return lockscopectl({"lock", mode, lockName()});
    }
};

TEST_F(LockscopectlRwLockIntegrationTest, OurReaderSharesWithGosAndGosWriterWaitsForBoth) {
    auto reader = lock("--read");
    const auto key = reader->readLine(10s);
    ASSERT_TRUE(key) << "lockscopectl lock --read printed nothing";
    EXPECT_EQ(key->rfind(lockName() + "/read/", 0), 0u) << *key;

    auto goReader = goAnchor({"rlock", lockName()});
    EXPECT_TRUE(goReader->saw("held", 10s)) << "Go's reader did not share: " << goReader->error();
    auto goWriter = goAnchor({"wlock", lockName()});
    ASSERT_TRUE(eventually([&] { return queueLength() == 3; }));
    EXPECT_FALSE(goWriter->saw("held", 500ms)) << "Go's writer ignored the readers";

    reader->signal(SIGINT); // Ctrl-C releases, as a plain lock does
    EXPECT_EQ(reader->wait(10s), 0);
    EXPECT_FALSE(goWriter->saw("held", 300ms)) << "Go's writer ignored Go's reader";
    releaseGo(*goReader);
    EXPECT_TRUE(goWriter->saw("held", 10s)) << goWriter->error();
    releaseGo(*goWriter);
    EXPECT_TRUE(eventually([&] { return queueLength() == 0; }));
}

TEST_F(LockscopectlRwLockIntegrationTest,
       OurWriterWaitsForGosReaderAndCtrlCWhileWaitingLeavesNoKey) {
    auto goReader = goAnchor({"rlock", lockName()});
    ASSERT_TRUE(goReader->saw("held", 10s)) << goReader->error();
    auto writer = lock("--write");
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    EXPECT_FALSE(writer->readLine(500ms)) << "our writer ignored Go's reader";
    releaseGo(*goReader);
    const auto key = writer->readLine(10s);
    ASSERT_TRUE(key) << "our writer did not acquire after Go's reader left";
    EXPECT_EQ(key->rfind(lockName() + "/write/", 0), 0u) << *key;

    auto goReaderBehind = goAnchor({"rlock", lockName()});
    ASSERT_TRUE(eventually([&] { return queueLength() == 2; }));
    EXPECT_FALSE(goReaderBehind->saw("held", 500ms)) << "Go's reader ignored our writer";
    auto secondWriter = lock("--write");
    ASSERT_TRUE(eventually([&] { return queueLength() == 3; }));
    secondWriter->signal(SIGINT);
    EXPECT_EQ(secondWriter->wait(10s), 1);
    EXPECT_TRUE(eventually([&] { return queueLength() == 2; })) << "a waiter's key was left";

    writer->signal(SIGINT);
    EXPECT_EQ(writer->wait(10s), 0);
    EXPECT_TRUE(goReaderBehind->saw("held", 10s)) << goReaderBehind->error();
    releaseGo(*goReaderBehind);
}

TEST_F(LockscopectlRwLockIntegrationTest, SnapshotJsonShowsGosReadersSharingAndOurWriterWaiting) {
    auto goReader = goAnchor({"rlock", lockName()});
    const std::string readerKey = expectHeld(*goReader);
    auto secondGoReader = goAnchor({"rlock", lockName()});
    const std::string secondReaderKey = expectHeld(*secondGoReader);
    auto writer = lock("--write");
    ASSERT_TRUE(eventually([&] { return queueLength() == 3; }));
    const std::string writerKey = keysUnder(lockName() + "/").back();

    const auto [code, lines] = runToEnd({"snapshot", prefix(), "--json"});
    ASSERT_EQ(code, 0);
    ASSERT_EQ(lines.size(), 1u);
    const QJsonObject lock =
        QJsonDocument::fromJson(QByteArray::fromStdString(lines[0]))["locks"][0].toObject();
    EXPECT_EQ(lock["name"].toString().toStdString(), lockName());
    EXPECT_EQ(lock["kind"].toString(), "rwmutex");
    const QJsonArray holders = lock["holders"].toArray();
    ASSERT_EQ(holders.size(), 2);
    EXPECT_EQ(holders[0]["key"].toString().toStdString(), readerKey);
    EXPECT_EQ(holders[1]["key"].toString().toStdString(), secondReaderKey);
    EXPECT_EQ(holders[1]["mode"].toString(), "read");
    const QJsonArray waiters = lock["waiters"].toArray();
    ASSERT_EQ(waiters.size(), 1);
    EXPECT_EQ(waiters[0]["key"].toString().toStdString(), writerKey);
    EXPECT_EQ(waiters[0]["mode"].toString(), "write");
    EXPECT_EQ(waiters[0]["waits_for"].toString().toStdString(), secondReaderKey);

    writer->signal(SIGINT);
    EXPECT_EQ(writer->wait(10s), 1); // interrupted while waiting
    releaseGo(*secondGoReader);
    releaseGo(*goReader);
}

TEST_F(LockscopectlRwLockIntegrationTest, ReadAndWriteTogetherIsAUsageError) {
    const auto [code, lines] = runToEnd({"lock", "--read", "--write", lockName()});
    EXPECT_EQ(code, 2);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front(), "lockscopectl: lock: --read and --write exclude each other: take one");
    EXPECT_EQ(queueLength(), 0u);
}

TEST_F(LockscopectlRwLockIntegrationTest, HelpListsReadAndWrite) {
    const auto [code, lines] = runToEnd({"--help"});
    EXPECT_EQ(code, 0);
    bool listed = false;
    for (const auto& line : lines)
        listed = listed || (line.find("--read or --write") != std::string::npos);
    EXPECT_TRUE(listed) << "lockscopectl --help does not list lock --read/--write";
}

} // namespace
