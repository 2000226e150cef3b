// Locks of clients nobody here wrote, read by lockscopectl as their recipes say: Debian's
// python3-etcd3 (single-key locks), npm's etcd3 (single-key locks and decimal-suffixed
// elections), etcdctl (a Go mutex queue), all under one prefix of a real etcd.
#include "lockscopectl_test.h"
#include "process/child_process.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>

using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

// Debian's interpreter, which has python3-etcd3: a `python3` earlier on PATH may not.
const char* const debianPython = "/usr/bin/python3";

class RecipesIntegrationTest : public LockscopectlTest {
protected:
    // Where this test's locks live: python-etcd3 puts its locks under /locks/ and nowhere else.
    std::string lockPrefix() const {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        return std::string("/locks/recipes-") + info->name() + "/";
    }
    std::string port() const {
        const std::string endpoint = cluster().endpoint(0);
        return endpoint.substr(endpoint.rfind(':') + 1);
    }
    // A python-etcd3 Lock(name): the key /locks/<name>. Prints "held <lease>" once held;
    // `holdFor` (and a `log` to record the hold in) lets go by itself.
    std::unique_ptr<ChildProcess> python(const std::string& name, std::string holdFor = {},
                                         std::string log = {}) {
        const std::string underLocks = lockPrefix().substr(std::string("/locks/").size()) + name;
        std::vector<std::string> argv = {debianPython, CLIENTS_DIR "/python_etcd3_lock.py",
                                         "127.0.0.1",  port(),
                                         underLocks,   "60"};
        if (!holdFor.empty())
            argv.insert(argv.end(), {holdFor, log});
        return std::make_unique<ChildProcess>(argv, std::vector<std::string>{},
                                              ChildProcess::Input::Pipe);
    }
    // npm etcd3's lock(name) or election(name).campaign(value) in the namespace lockPrefix().
    std::unique_ptr<ChildProcess> node(std::vector<std::string> args) {
        std::vector<std::string> argv = {"node", CLIENTS_DIR "/node_etcd3_client.js",
                                         "http://127.0.0.1:" + port(), lockPrefix()};
        argv.insert(argv.end(), args.begin(), args.end());
        return std::make_unique<ChildProcess>(
            argv, std::vector<std::string>{"NODE_PATH=" NODE_MODULES}, ChildProcess::Input::Pipe);
    }
    static void expectLine(ChildProcess& client, const std::string& start) {
        const auto line = client.readLine(20s);
        ASSERT_TRUE(line) << "no line starting with " << start;
        EXPECT_EQ(line->rfind(start, 0), 0u) << *line << " (expected " << start << ")";
    }
    // node etcd3's candidacies print "campaigning" and "elected" in either order (its elected
    // event may come before the key is known), so lines are waited for, not taken in turn.
    static void awaitLine(ChildProcess& client, const std::string& start) {
        while (const auto line = client.readLine(20s))
            if (line->rfind(start, 0) == 0)
                return;
        ADD_FAILURE() << "no line starting with " << start;
    }
    // The snapshot's locks by name.
    std::map<std::string, QJsonObject> snapshot() {
        const auto [code, lines] = runToEnd({"snapshot", "--json", lockPrefix()});
        EXPECT_EQ(code, 0);
        std::map<std::string, QJsonObject> locks;
        if (lines.empty())
            return locks;
        const QJsonObject state =
            QJsonDocument::fromJson(QByteArray::fromStdString(lines[0])).object();
        EXPECT_TRUE(state["anomalies"].toArray().isEmpty())
            << QJsonDocument(state["anomalies"].toArray()).toJson().toStdString();
        for (const auto lock : state["locks"].toArray())
            locks[lock.toObject()["name"].toString().toStdString()] = lock.toObject();
        return locks;
    }
};

TEST_F(RecipesIntegrationTest, EveryClientsLocksAreReadByTheirOwnRecipe) {
    auto job = python("job");
    auto report = python("report");
    auto nightly = node({"lock", "nightly", "60"});
    auto hourly = node({"lock", "hourly", "60"});
    for (auto* client : {job.get(), report.get(), nightly.get(), hourly.get()})
        expectLine(*client, "held ");
    auto leader = node({"campaign", "sched", "host-a", "60"});
    awaitLine(*leader, "elected");
    auto candidate = node({"campaign", "sched", "host-b", "60"});
    awaitLine(*candidate, "campaigning ");
    auto goHolder = etcdctlLock(lockPrefix() + "go");
    ASSERT_TRUE(goHolder->readLine(10s));
    auto goWaiter = etcdctlLock(lockPrefix() + "go");
    ASSERT_TRUE(eventually([&] { return keysUnder(lockPrefix() + "go/").size() == 2; }));

    const auto locks = snapshot();
    ASSERT_EQ(locks.size(), 6u);
    for (const char* single : {"job", "report", "nightly", "hourly"}) {
        const QJsonObject lock = locks.at(lockPrefix() + single);
        EXPECT_EQ(lock["recipe"].toString(), "single-key") << single;
        EXPECT_FALSE(lock["waiters_visible"].toBool()) << single;
        EXPECT_TRUE(lock["waiters"].toArray().isEmpty()) << single;
        EXPECT_FALSE(lock["recipe_assumed"].toBool());
        EXPECT_EQ(lock["holder"].toObject()["key"].toString().toStdString(), lockPrefix() + single);
    }
    // python-etcd3's value is a binary uuid: hex, never mis-decoded text.
    EXPECT_TRUE(
        locks.at(lockPrefix() + "job")["holder"].toObject()["value"].toString().startsWith("0x"));
    const QJsonObject election = locks.at(lockPrefix() + "election/sched");
    EXPECT_EQ(election["recipe"].toString(), "election");
    EXPECT_EQ(election["holder"].toObject()["value"].toString(), "host-a");
    ASSERT_EQ(election["waiters"].toArray().size(), 1);
    EXPECT_EQ(election["waiters"].toArray()[0].toObject()["value"].toString(), "host-b");
    const QJsonObject go = locks.at(lockPrefix() + "go");
    EXPECT_EQ(go["recipe"].toString(), "mutex");
    EXPECT_EQ(go["waiters"].toArray().size(), 1);

    // The exporter counts the locks by recipe, and exports no waiter count for a lock whose
    // waiters hold no key (unknown is not 0).
    auto exporter = lockscopectl({"exporter", lockPrefix(), "--listen", "127.0.0.1:0"});
    const std::string said = exporter->readLine(10s).value_or("");
    const auto at = said.find("http://");
    ASSERT_NE(at, std::string::npos) << said;
    const std::string metrics = said.substr(at, said.find("/metrics", at) - at) + "/metrics";
    std::string scraped;
    ASSERT_TRUE(eventually([&] {
        ChildProcess curl({"curl", "-s", "-f", metrics});
        scraped.clear();
        while (const auto line = curl.readLine(5s))
            scraped += *line + "\n";
        // The sample, not its help text ("# HELP lockscope_monitor_up 1 while ...").
        return scraped.find("\nlockscope_monitor_up 1\n") != std::string::npos;
    })) << scraped;
    for (const char* line :
         {"lockscope_locks{recipe=\"single-key\"} 4", "lockscope_locks{recipe=\"election\"} 1",
          "lockscope_locks{recipe=\"mutex\"} 1"})
        EXPECT_NE(scraped.find(line), std::string::npos) << line << "\n" << scraped;
    EXPECT_NE(scraped.find("lockscope_lock_waiters{lock=\"" + lockPrefix() + "go\"} 1"),
              std::string::npos);
    EXPECT_EQ(scraped.find("lockscope_lock_waiters{lock=\"" + lockPrefix() + "job\"}"),
              std::string::npos);
    EXPECT_NE(scraped.find("lockscope_lock_held{lock=\"" + lockPrefix() + "job\"} 1"),
              std::string::npos);
    exporter.reset();

    // Where detection cannot decide, the operator says: every key its own lock.
    const auto [code, lines] =
        runToEnd({"snapshot", "--json", "--recipe", "single-key", lockPrefix()});
    ASSERT_EQ(code, 0);
    const auto assumed = QJsonDocument::fromJson(QByteArray::fromStdString(lines.at(0))).object();
    EXPECT_EQ(assumed["locks"].toArray().size(), 8); // 4, and each candidate's and Go key
    EXPECT_TRUE(assumed["locks"].toArray()[0].toObject()["recipe_assumed"].toBool());
    const auto [badCode, badLines] = runToEnd({"snapshot", "--recipe", "python", lockPrefix()});
    EXPECT_EQ(badCode, 2);

    for (auto* client :
         {job.get(), report.get(), nightly.get(), hourly.get(), leader.get(), candidate.get()}) {
        client->writeLine("release");
        awaitLine(*client, "released"); // the candidate may be elected first
    }
}

// A handoff of a single-key lock is that lock's release and acquisition, nothing else's, and
// the new holder's wait is unknown (its waiters hold no key), not 0.
TEST_F(RecipesIntegrationTest, AHandoffOfASingleKeyLockIsReleasedThenAcquiredOfThatLockOnly) {
    auto watch = lockscopectl({"watch", "--json", lockPrefix()});
    std::vector<std::pair<std::string, std::string>> events; // (event, lock)
    const auto readEvents = [&](std::size_t count) {
        while (events.size() < count) {
            const auto line = watch->readLine(20s);
            ASSERT_TRUE(line) << "only " << events.size() << " events";
            const QJsonObject event =
                QJsonDocument::fromJson(QByteArray::fromStdString(*line)).object();
            if (!event.contains("event"))
                continue;
            events.emplace_back(event["event"].toString().toStdString(),
                                event["lock"].toString().toStdString());
            EXPECT_EQ(event["recipe"].toString(), "single-key") << *line;
            if (event["event"].toString() == "acquired") {
                EXPECT_TRUE(event["waited_ms"].isNull()) << *line;
            }
        }
    };
    // Listed first: a lock taken before the watch's first listing is state, not an event.
    ASSERT_EQ(watch->readLine(20s), std::optional<std::string>("lockscopectl: watching"));
    auto report = python("report");
    expectLine(*report, "held ");
    readEvents(1); // the watch runs
    auto first = python("job");
    expectLine(*first, "held ");
    auto second = python("job"); // waits with a watch of the key, holding no key
    auto nodeFirst = node({"lock", "nightly", "60"});
    expectLine(*nodeFirst, "held ");
    auto nodeSecond = node({"lock", "nightly", "60"}); // tries again every 100 ms

    first->writeLine("release");
    expectLine(*first, "released");
    expectLine(*second, "held ");
    nodeFirst->writeLine("release");
    expectLine(*nodeFirst, "released");
    expectLine(*nodeSecond, "held ");
    readEvents(7);
    const std::vector<std::pair<std::string, std::string>> expected = {
        {"acquired", lockPrefix() + "report"},  {"acquired", lockPrefix() + "job"},
        {"acquired", lockPrefix() + "nightly"}, {"released", lockPrefix() + "job"},
        {"acquired", lockPrefix() + "job"},     {"released", lockPrefix() + "nightly"},
        {"acquired", lockPrefix() + "nightly"}};
    EXPECT_EQ(events, expected);
    for (auto* client : {report.get(), second.get(), nodeSecond.get()}) {
        client->writeLine("release");
        expectLine(*client, "released");
    }
}

// `lockscopectl lock --recipe single-key` takes python-etcd3's lock as python-etcd3 does: the
// two exclude each other both ways, and nothing is left behind.
TEST_F(RecipesIntegrationTest, LockscopectlsSingleKeyLockAndPythonEtcd3ExcludeEachOther) {
    const std::string log = ::testing::TempDir() + "recipes-single-key-holds.log";
    std::remove(log.c_str());
    const std::string key = lockPrefix() + "job";
    // --try finds python's hold.
    auto holder = python("job");
    expectLine(*holder, "held ");
    EXPECT_EQ(runToEnd({"lock", "--recipe", "single-key", "--try", key}).first, 3);
    holder->writeLine("release");
    expectLine(*holder, "released");

    // Three of each at once, each recording its hold.
    std::vector<std::unique_ptr<ChildProcess>> contenders;
    for (int i = 0; i < 3; ++i) {
        contenders.push_back(lockscopectl(
            {"lock", "--recipe", "single-key", key, "--", "sh", "-c",
             "echo in lockscopectl >> " + log + "; sleep 0.3; echo out lockscopectl >> " + log}));
        contenders.push_back(python("job", "0.3", log));
    }
    for (auto& contender : contenders) {
        while (contender->readLine(1s)) {
        }
        EXPECT_EQ(contender->wait(60s), 0);
    }
    std::ifstream in(log);
    std::vector<std::string> holds;
    for (std::string line; std::getline(in, line);)
        holds.push_back(line);
    ASSERT_EQ(holds.size(), 12u);
    for (std::size_t i = 0; i < holds.size(); i += 2) { // each "in" followed by its own "out"
        ASSERT_EQ(holds[i].rfind("in ", 0), 0u) << "two holders at once: " << i;
        EXPECT_EQ(holds[i + 1], "out " + holds[i].substr(3)) << "two holders at once: " << i;
    }
    EXPECT_EQ(std::count(holds.begin(), holds.end(), "in python"), 3);
    EXPECT_TRUE(keysUnder(lockPrefix()).empty());
}

} // namespace
