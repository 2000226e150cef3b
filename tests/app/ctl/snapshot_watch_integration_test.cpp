#include "etcdclient/blocking.h"
#include "lockscopectl_test.h"
#include "process/child_process.h"
#include "process/etcdctl_args.h"
#include "process/huge_page_heap.h"
#include "support/etcd_fixture.h"
#include "support/etcdctl.h"
#include "support/local_etcd.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <csignal>
#include <fstream>
#include <optional>
#include <utility>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

// The trimmed cells of a row of lockscopectl's text table; none for any other line.
std::vector<std::string> cellsOf(const std::string& line) {
    std::vector<std::string> cells;
    if (line.empty() || line.front() != '|')
        return cells;
    for (const QString& cell : QString::fromStdString(line).split('|').mid(1, -1))
        cells.push_back(cell.trimmed().toStdString());
    cells.pop_back(); // what follows the closing bar
    return cells;
}

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
        sawEscapedBinary = sawEscapedBinary || l.toObject()["name"].toString().contains("bin\\xff");
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

    const auto [tableExit, table] = runToEnd({"snapshot", prefix()});
    EXPECT_EQ(tableExit, 0);
    ASSERT_GE(table.size(), 3u);
    EXPECT_NE(table[0].find("2 lock(s)"), std::string::npos) << table[0];
    // One table of both locks' queues, each row naming its lock.
    EXPECT_EQ(cellsOf(table[2]),
              (std::vector<std::string>{"LOCK", "RECIPE", "POSITION", "KEY", "LEASE", "CREATE REV",
                                        "TTL", "GRANTED", "WAITS ON", "VALUE"}));
    std::vector<std::vector<std::string>> jobsRows;
    for (const std::string& line : table)
        if (const auto cells = cellsOf(line); cells.size() == 10 && cells[0] == name)
            jobsRows.push_back(cells);
    ASSERT_EQ(jobsRows.size(), 3u);
    EXPECT_EQ(jobsRows[0][1], "mutex");
    EXPECT_EQ(jobsRows[0][2], "holder");
    EXPECT_EQ(jobsRows[0][3], *holderKey);
    EXPECT_EQ(jobsRows[0][7], "10 s");
    EXPECT_EQ(jobsRows[0][8], "");
    EXPECT_EQ(jobsRows[1][2], "1");
    EXPECT_EQ(jobsRows[1][8], *holderKey);
    EXPECT_EQ(jobsRows[2][2], "2");
    EXPECT_EQ(jobsRows[2][3], name + "/stray");
    EXPECT_EQ(jobsRows[2][6], ""); // no lease to look up
    EXPECT_EQ(jobs["kind"].toString(), QString("mutex"));
}

// etcd's own history, while it keeps it: the queue as it was at a revision, after it moved on;
// a compacted or future revision, or no number, is said with what can be asked for.
TEST_F(LockscopectlSnapshotWatchIntegrationTest, SnapshotAtARevisionShowsTheQueueAsItWasThen) {
    const std::string name = prefix() + "past";
    auto first = etcdctlLock(name);
    const auto firstKey = first->readLine(10s);
    ASSERT_TRUE(firstKey);
    auto second = etcdctlLock(name);
    ASSERT_TRUE(eventually([&] { return keysUnder(name + "/").size() == 2; }));
    const auto [thenExit, then] = runToEnd({"snapshot", prefix(), "--json"});
    ASSERT_EQ(thenExit, 0);
    ASSERT_EQ(then.size(), 1u);
    const qint64 revision =
        QJsonDocument::fromJson(QByteArray::fromStdString(then[0]))["revision"].toInteger();
    ASSERT_GT(revision, 0);
    first->signal(SIGINT); // the queue moves on: the second holds, the first is gone
    const auto secondKey = second->readLine(10s);
    ASSERT_TRUE(secondKey);

    const auto [pastExit, past] =
        runToEnd({"snapshot", prefix(), "--revision", std::to_string(revision), "--json"});
    ASSERT_EQ(pastExit, 0);
    ASSERT_EQ(past.size(), 1u);
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(past[0]));
    EXPECT_EQ(doc["revision"].toInteger(), revision);
    QJsonObject lock;
    for (const auto& each : doc["locks"].toArray())
        if (each.toObject()["name"].toString().toStdString() == name)
            lock = each.toObject();
    ASSERT_FALSE(lock.isEmpty()) << past[0];
    EXPECT_EQ(lock["holder"].toObject()["key"].toString().toStdString(), *firstKey);
    const QJsonArray waiters = lock["waiters"].toArray();
    ASSERT_EQ(waiters.size(), 1);
    EXPECT_EQ(waiters[0].toObject()["key"].toString().toStdString(), *secondKey);
    const auto [tableExit, table] =
        runToEnd({"snapshot", prefix(), "--revision", std::to_string(revision)});
    EXPECT_EQ(tableExit, 0);
    ASSERT_FALSE(table.empty());
    EXPECT_NE(table[0].find("revision " + std::to_string(revision)), std::string::npos) << table[0];

    // After a compaction past it, and ahead of etcd: refused, with what can be read.
    pb::RangeRequest any;
    any.set_key(prefix());
    const auto now = call(*client, &Client::range, any);
    ASSERT_TRUE(now);
    ASSERT_EQ(
        etcdctl(cluster().endpointList(), {"compact", std::to_string(now->header().revision())})
            .exitCode,
        0);
    const auto [compactedExit, compacted] =
        runToEnd({"snapshot", prefix(), "--revision", std::to_string(revision)});
    EXPECT_EQ(compactedExit, 2);
    ASSERT_FALSE(compacted.empty());
    EXPECT_NE(compacted[0].find("compacted away"), std::string::npos) << compacted[0];
    const auto [futureExit, future] = runToEnd({"snapshot", prefix(), "--revision", "999999999"});
    EXPECT_EQ(futureExit, 2);
    ASSERT_FALSE(future.empty());
    EXPECT_NE(future[0].find("not reached yet"), std::string::npos) << future[0];
    const auto [wordExit, word] = runToEnd({"snapshot", prefix(), "--revision", "yesterday"});
    EXPECT_EQ(wordExit, 2);
    ASSERT_FALSE(word.empty());
    EXPECT_NE(word[0].find("--revision"), std::string::npos) << word[0];
    second->signal(SIGINT);
    EXPECT_TRUE(second->wait(10s));
}

// An `etcdctl elect` queue is shown as an election, not a lock. Two real candidates: the leader and
// the other, each with its proposal, in the JSON and the table.
TEST_F(LockscopectlSnapshotWatchIntegrationTest, SnapshotShowsAnElectionsLeaderAndCandidates) {
    const std::string name = prefix() + "primary";
    auto alice = etcdctlElect(cluster().endpointList(), name, "alice");
    const auto leaderKey = alice->readLine(10s); // etcdctl prints the key once it leads
    ASSERT_TRUE(leaderKey);
    auto bob = etcdctlElect(cluster().endpointList(), name, "bob");
    ASSERT_TRUE(eventually([&] { return keysUnder(name + "/").size() == 2; }))
        << "the second candidate never campaigned";

    const auto [jsonExit, json] = runToEnd({"snapshot", prefix(), "--json"});
    EXPECT_EQ(jsonExit, 0);
    ASSERT_EQ(json.size(), 1u);
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(json[0]));
    const QJsonArray locks = doc["locks"].toArray();
    ASSERT_EQ(locks.size(), 1) << json[0];
    const QJsonObject election = locks[0].toObject();
    EXPECT_EQ(election["kind"].toString(), QString("election"));
    EXPECT_EQ(election["holder"]["key"].toString().toStdString(), *leaderKey);
    EXPECT_EQ(election["holder"]["value"].toString(), QString("alice"));
    ASSERT_EQ(election["waiters"].toArray().size(), 1);
    EXPECT_EQ(election["waiters"][0]["value"].toString(), QString("bob"));

    const auto [tableExit, table] = runToEnd({"snapshot", prefix()});
    EXPECT_EQ(tableExit, 0);
    std::vector<std::vector<std::string>> rows;
    for (const std::string& line : table)
        if (const auto cells = cellsOf(line); cells.size() == 10 && cells[0] == name)
            rows.push_back(cells);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][1], "election");
    EXPECT_EQ(rows[0][2], "leader");
    EXPECT_EQ(rows[0][3], *leaderKey);
    EXPECT_EQ(rows[0][9], "alice");
    EXPECT_EQ(rows[1][2], "1");
    EXPECT_EQ(rows[1][9], "bob");
    alice->signal(SIGINT);
    bob->signal(SIGINT);
    EXPECT_TRUE(alice->wait(10s));
    EXPECT_TRUE(bob->wait(10s));
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

// watch holds every key under its prefix, so lockscopectl runs itself again on glibc's huge-page
// heap when the kernel allows it (process/huge_page_heap.h), under its own name, unless the
// caller's GLIBC_TUNABLES name both of its tunables (the documented opt-out). The environment it
// was run again with is read back from /proc: glibc rewrites GLIBC_TUNABLES there as it reads it,
// but not the marker beside it, which holds the caller's value.
TEST_F(LockscopectlSnapshotWatchIntegrationTest, WatchRunsOnTheHugePageHeapUnlessTheCallerOptsOut) {
    const bool restarts = kernelAllowsHugePages();
    const std::vector<std::pair<std::string, std::optional<std::string>>> callers = {
        {"", restarts ? std::optional<std::string>("-") : std::nullopt},
        {"glibc.malloc.perturb=0",
         restarts ? std::optional<std::string>("=glibc.malloc.perturb=0") : std::nullopt},
        {"glibc.malloc.hugetlb=0:glibc.malloc.arena_max=0", std::nullopt}};
    for (const auto& [caller, marker] : callers) {
        SCOPED_TRACE("caller's GLIBC_TUNABLES: " + caller);
        auto watch =
            lockscopectl({"watch", prefix()},
                         caller.empty() ? std::vector<std::string>{}
                                        : std::vector<std::string>{"GLIBC_TUNABLES=" + caller});
        ASSERT_EQ(watch->readLine(10s), std::optional<std::string>("lockscopectl: watching"));
        const std::string proc = "/proc/" + std::to_string(watch->pid());
        std::string name;
        std::getline(std::ifstream(proc + "/comm"), name);
        EXPECT_EQ(name, "lockscopectl");
        std::optional<std::string> found;
        std::ifstream environment(proc + "/environ");
        for (std::string variable; std::getline(environment, variable, '\0');)
            if (variable.starts_with("LOCKSCOPE_CALLER_GLIBC_TUNABLES="))
                found = variable.substr(variable.find('=') + 1);
        EXPECT_EQ(found, marker);
        watch->signal(SIGINT);
        EXPECT_EQ(watch->wait(10s), 0);
    }
}

TEST_F(LockscopectlSnapshotWatchIntegrationTest,
       WatchThatCannotReachTheClusterSaysItIsReconnectingWithinTheDialTimeout) {
    // A port nobody listens on: etcd may come up there, so watch keeps trying and says so.
    for (const std::string& endpoint : {std::string("127.0.0.1:1")}) {
        const auto start = std::chrono::steady_clock::now();
        ChildProcess watch({LOCKSCOPECTL, "--endpoints", endpoint, "--dial-timeout", "1s", "watch",
                            prefix(), "--json"});
        auto first = watch.readLine(10s);
        ASSERT_TRUE(first) << endpoint << ": silent";
        EXPECT_LT(std::chrono::steady_clock::now() - start, 3s)
            << endpoint << ": the first word came later than the dial timeout allows";
        bool saidOnStderr = false, saidInJson = false;
        for (auto line = first; line && !(saidOnStderr && saidInJson); line = watch.readLine(10s)) {
            static const QRegularExpression reconnecting(
                R"(^lockscopectl: reconnecting \(attempt [0-9]+, next in [0-9]+\.[0-9] s\): )"
                R"(cannot read .*unavailable)");
            if (reconnecting.match(QString::fromStdString(*line)).hasMatch())
                saidOnStderr = true;
            const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(*line));
            if (doc.isObject() && doc["event"].toString() == "reconnecting") {
                saidInJson = true;
                EXPECT_GE(doc["attempt"].toInt(), 1);
                EXPECT_GT(doc["next_in_s"].toDouble(), 0);
                EXPECT_EQ(doc["error"].toString(), "unavailable") << *line;
                EXPECT_FALSE(doc["reason"].toString().isEmpty());
            }
        }
        EXPECT_TRUE(saidOnStderr) << endpoint;
        EXPECT_TRUE(saidInJson) << endpoint;
        watch.signal(SIGINT);
        EXPECT_EQ(watch.wait(10s), 0) << endpoint;
    }
}

// https against this plain-text etcd will not fix itself: watch names the cause and exits.
TEST_F(LockscopectlSnapshotWatchIntegrationTest, WatchWithTheWrongSchemeSaysSoAndExits) {
    const auto start = std::chrono::steady_clock::now();
    ChildProcess watch({LOCKSCOPECTL, "--endpoints", "https://" + cluster().endpoint(0),
                        "--dial-timeout", "1s", "watch", prefix()});
    auto line = watch.readLine(10s);
    ASSERT_TRUE(line) << "silent";
    EXPECT_NE(line->find("wrong scheme"), std::string::npos) << *line;
    EXPECT_NE(line->find("plain text"), std::string::npos) << *line;
    EXPECT_EQ(watch.wait(10s), 1);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST_F(LockscopectlSnapshotWatchIntegrationTest, WatchOfAnEmptyPrefixIsAUsageError) {
    auto watch = lockscopectl({"watch", ""});
    auto line = watch->readLine(5s);
    ASSERT_TRUE(line);
    EXPECT_NE(line->find("non-empty PREFIX"), std::string::npos) << *line;
    EXPECT_EQ(watch->wait(5s), 2);
}

TEST_F(LockscopectlSnapshotWatchIntegrationTest, MissingPrefixIsAUsageError) {
    auto snapshot = lockscopectl({"snapshot"});
    auto line = snapshot->readLine(5s);
    ASSERT_TRUE(line);
    EXPECT_NE(line->find("PREFIX"), std::string::npos);
    EXPECT_EQ(snapshot->wait(5s), 2);
}

// etcd with authentication on and a user "bob" who may read only under /bob/.
class LockscopectlWatchAuthIntegrationTest : public ::testing::Test {
protected:
    void SetUp() override {
        auto started = startCluster();
        ASSERT_TRUE(started) << started.error().message;
        cluster_ = std::move(started).value();
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"user", "add", "root:rootpw"},
              {"user", "add", "bob:bobpw"},
              {"role", "add", "bob-role"},
              {"role", "grant-permission", "bob-role", "--prefix=true", "read", "/bob/"},
              {"user", "grant-role", "bob", "bob-role"},
              {"auth", "enable"}}) {
            auto r = etcdctl(cluster_->endpointList(), args);
            ASSERT_EQ(r.exitCode, 0) << r.output;
        }
    }
    std::unique_ptr<etcd::LocalCluster> cluster_;
};

TEST_F(LockscopectlWatchAuthIntegrationTest, WatchOfAPrefixTheUserMayNotReadExitsOneAtOnce) {
    const auto start = std::chrono::steady_clock::now();
    ChildProcess watch({LOCKSCOPECTL, "--endpoints", cluster_->endpointList(), "--user",
                        "bob:bobpw", "watch", "/locks/"});
    auto line = watch.readLine(10s);
    ASSERT_TRUE(line) << "silent";
    EXPECT_NE(line->find("permission"), std::string::npos) << *line;
    EXPECT_NE(line->find("/locks/"), std::string::npos) << *line;
    EXPECT_EQ(watch.wait(10s), 1);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);

    // Where bob may read, the same watch runs.
    ChildProcess allowed({LOCKSCOPECTL, "--endpoints", cluster_->endpointList(), "--user",
                          "bob:bobpw", "watch", "/bob/"});
    EXPECT_EQ(allowed.readLine(10s), std::optional<std::string>("lockscopectl: watching"));
    allowed.signal(SIGINT);
    EXPECT_EQ(allowed.wait(10s), 0);
}

} // namespace

// A megabyte value: the table shows its head and its length on one short line; the JSON keeps
// every byte.
TEST_F(LockscopectlSnapshotWatchIntegrationTest, SnapshotTextShortensALongValueAndJsonKeepsIt) {
    const std::string name = prefix() + "big";
    const std::string value(1 << 20, 'v');
    pb::PutRequest put;
    put.set_key(name);
    put.set_value(value);
    ASSERT_TRUE(call(*client, &Client::put, put));

    const auto [tableExit, table] = runToEnd({"snapshot", prefix()});
    EXPECT_EQ(tableExit, 0);
    std::size_t longest = 0;
    std::vector<std::string> bigRow;
    for (const std::string& line : table) {
        longest = std::max(longest, line.size());
        if (const auto cells = cellsOf(line); cells.size() == 10 && cells[0] == name)
            bigRow = cells;
    }
    EXPECT_LT(longest, 1000u);
    ASSERT_EQ(bigRow.size(), 10u);
    EXPECT_EQ(bigRow[9], std::string(64, 'v') + "… (1048576 byte(s))");

    const auto [jsonExit, json] = runToEnd({"snapshot", prefix(), "--json"});
    EXPECT_EQ(jsonExit, 0);
    ASSERT_EQ(json.size(), 1u);
    const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(json[0]));
    const QJsonArray locks = doc["locks"].toArray();
    ASSERT_EQ(locks.size(), 1);
    EXPECT_EQ(locks[0]["holder"]["value"].toString().toStdString(), value);
}
