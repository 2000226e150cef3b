// lockscopectl --profile against real etcd servers: the desktop's saved connection profiles (a
// settings file in a temporary XDG_CONFIG_HOME, as LockScope's connection dialog writes it),
// several clusters in one status or snapshot, one section each, and what is refused.
#include "lockscopectl_test.h"
#include "support/local_etcd.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <tuple>

using namespace lockscope::test;
using namespace std::chrono_literals;

namespace {

class LockscopectlProfilesIntegrationTest : public LockscopectlTest {
protected:
    void SetUp() override {
        LockscopectlTest::SetUp();
        ASSERT_TRUE(config.isValid());
    }
    // The profiles as LockScope saves them: [profiles] with a name and endpoints each.
    void saveProfiles(const std::vector<std::pair<std::string, std::string>>& profiles) {
        const std::string folder = config.filePath("LockScope").toStdString();
        std::filesystem::create_directories(folder);
        std::ofstream file(folder + "/LockScope.conf");
        file << "[profiles]\n";
        for (std::size_t i = 0; i < profiles.size(); ++i)
            file << i + 1 << "\\name=" << profiles[i].first << "\n"
                 << i + 1 << "\\endpoints=" << profiles[i].second << "\n";
        file << "size=" << profiles.size() << "\n";
    }
    // lockscopectl with the desktop's settings in `config`: its exit code and every line.
    std::pair<std::optional<int>, std::vector<std::string>> run(std::vector<std::string> args) {
        args.insert(args.begin(), LOCKSCOPECTL);
        lockscope::process::ChildProcess child(args,
                                               {"XDG_CONFIG_HOME=" + config.path().toStdString()});
        std::vector<std::string> lines;
        while (auto line = child.readLine(15s))
            lines.push_back(*line);
        return {child.wait(15s), lines};
    }
    // Starts `lockscopectl args` (an exporter) with the desktop's settings; the base of the URL
    // it says it serves ("" when it says none).
    std::string startExporter(std::vector<std::string> args) {
        args.insert(args.begin(), LOCKSCOPECTL);
        exporter = std::make_unique<lockscope::process::ChildProcess>(
            args, std::vector<std::string>{"XDG_CONFIG_HOME=" + config.path().toStdString()});
        const auto listening = exporter->readLine(10s).value_or("");
        const auto from = listening.find("http://"), to = listening.find("/metrics");
        return from == std::string::npos || to == std::string::npos
                   ? std::string()
                   : listening.substr(from, to - from);
    }
    static bool says(const std::vector<std::string>& lines, const std::string& text) {
        return std::any_of(lines.begin(), lines.end(),
                           [&](const auto& line) { return line.find(text) != std::string::npos; });
    }

    QTemporaryDir config;
    std::unique_ptr<lockscope::process::ChildProcess> exporter;
};

TEST_F(LockscopectlProfilesIntegrationTest, SeveralClustersEachInASectionOfItsOwn) {
    LocalEtcd other;
    ASSERT_TRUE(other.start()) << other.error();
    saveProfiles({{"staging", cluster().endpointList()}, {"prod", other.cluster().endpointList()}});
    auto here = etcdctlLock(prefix() + "here");
    ASSERT_TRUE(here->readLine(10s));
    auto there = lockscope::test::etcdctlLock(other.cluster().endpointList(), prefix() + "there");
    ASSERT_TRUE(there->readLine(10s));

    const auto [code, lines] =
        run({"--profile", "staging", "--profile", "prod", "snapshot", prefix(), "--json"});
    ASSERT_EQ(code, 0);
    // A line naming the profile, then that cluster's snapshot.
    std::vector<std::pair<std::string, std::string>> sections; // profile, its one lock
    for (const auto& line : lines) {
        const QJsonObject object =
            QJsonDocument::fromJson(QByteArray::fromStdString(line)).object();
        if (object.contains("profile"))
            sections.emplace_back(object["profile"].toString().toStdString(), "");
        else if (object.contains("locks") && !sections.empty() &&
                 object["locks"].toArray().size() == 1)
            sections.back().second =
                object["locks"].toArray().first().toObject()["name"].toString().toStdString();
    }
    ASSERT_EQ(sections.size(), 2u);
    EXPECT_EQ(sections[0], std::make_pair(std::string("staging"), prefix() + "here"));
    EXPECT_EQ(sections[1], std::make_pair(std::string("prod"), prefix() + "there"));

    // A cluster down is its own section's failure; the other's still shows, and the exit code
    // says one failed.
    saveProfiles({{"staging", cluster().endpointList()}, {"down", "127.0.0.1:1"}});
    const auto [statusCode, status] = run({"--profile", "staging", "--profile", "down", "status"});
    EXPECT_EQ(statusCode, 1);
    EXPECT_TRUE(says(status, "== staging (" + cluster().endpointList() + ")"));
    EXPECT_TRUE(says(status, "== down (127.0.0.1:1)"));
    EXPECT_TRUE(says(status, "connection refused"));
}

TEST_F(LockscopectlProfilesIntegrationTest, AnUnknownProfileFlagsBesideOneAndALongRunAreRefused) {
    saveProfiles({{"staging", cluster().endpointList()}});
    const auto [unknown, unknownLines] = run({"--profile", "nope", "status"});
    EXPECT_EQ(unknown, 2);
    EXPECT_TRUE(says(unknownLines, "no saved connection profile \"nope\" (saved: staging)"));
    const auto [both, bothLines] =
        run({"--profile", "staging", "--endpoints", cluster().endpointList(), "status"});
    EXPECT_EQ(both, 2);
    EXPECT_TRUE(says(bothLines, "leave out --endpoints"));
    const auto [watch, watchLines] =
        run({"--profile", "staging", "--profile", "staging", "watch", prefix()});
    EXPECT_EQ(watch, 2);
    EXPECT_TRUE(says(watchLines, "give one --profile"));
    // One profile goes with every command.
    const auto [one, oneLines] = run({"--profile", "staging", "snapshot", prefix()});
    EXPECT_EQ(one, 0);
    EXPECT_TRUE(says(oneLines, "0 lock(s) under"));
}

// The exporter run through a profile labels every series with the profile's name, never with
// endpoints: one Prometheus scraping several exporters tells their clusters apart.
TEST_F(LockscopectlProfilesIntegrationTest, TheExporterLabelsEverySeriesWithTheProfilesName) {
    saveProfiles({{"staging", cluster().endpointList()}});
    auto holder = etcdctlLock(prefix() + "deploy");
    ASSERT_TRUE(holder->readLine(10s));
    const std::string base =
        startExporter({"--profile", "staging", "exporter", prefix(), "--listen", "127.0.0.1:0"});
    ASSERT_FALSE(base.empty());
    std::string metrics;
    ASSERT_TRUE(eventually(
        [&] {
            metrics = httpGet(base + "/metrics").second.toStdString();
            return metrics.find("lock=\"" + prefix() + "deploy\"") != std::string::npos;
        },
        15s))
        << metrics;
    int series = 0, labelled = 0;
    std::istringstream lines(metrics);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#' || line.find('{') == std::string::npos)
            continue;
        ++series;
        labelled += line.find("{cluster=\"staging\"") != std::string::npos;
        EXPECT_EQ(line.find(cluster().endpointList()), std::string::npos) << line;
    }
    EXPECT_GT(series, 5);
    EXPECT_EQ(labelled, series) << metrics;
}

// One exporter serves several clusters: each lock under its own cluster's label only, each
// family written once with every cluster's series, and /healthz names the cluster that is down
// while the other's series are still served.
TEST_F(LockscopectlProfilesIntegrationTest, OneExporterServesSeveralClustersEachUnderItsName) {
    LocalEtcd other;
    ASSERT_TRUE(other.start()) << other.error();
    const std::string prod = other.cluster().endpointList(); // stopped below
    saveProfiles({{"staging", cluster().endpointList()}, {"prod", prod}});
    const std::string recording = config.filePath("fleet.db").toStdString();
    const std::string base =
        startExporter({"--profile", "staging", "--profile", "prod", "exporter", prefix(),
                       "--listen", "127.0.0.1:0", "--record", recording});
    ASSERT_FALSE(base.empty());
    // Taken once both are watched, so that each is an event recorded, not a checkpoint's state.
    ASSERT_TRUE(eventually([&] { return httpGet(base + "/healthz").first == 200; }, 15s));
    auto here = etcdctlLock(prefix() + "here");
    ASSERT_TRUE(here->readLine(10s));
    auto there = lockscope::test::etcdctlLock(prod, prefix() + "there");
    ASSERT_TRUE(there->readLine(10s));
    const auto held = [&](const std::string& cluster, const std::string& lock) {
        return "lockscope_lock_held{cluster=\"" + cluster + "\",lock=\"" + prefix() + lock +
               "\"} 1\n";
    };
    std::string metrics;
    ASSERT_TRUE(eventually(
        [&] {
            metrics = httpGet(base + "/metrics").second.toStdString();
            return metrics.find(held("staging", "here")) != std::string::npos &&
                   metrics.find(held("prod", "there")) != std::string::npos;
        },
        15s))
        << metrics;
    EXPECT_EQ(metrics.find("cluster=\"prod\",lock=\"" + prefix() + "here"), std::string::npos);
    EXPECT_EQ(metrics.find("cluster=\"staging\",lock=\"" + prefix() + "there"), std::string::npos);
    // As the text format wants: a family's HELP and TYPE once, then all its series together.
    std::set<std::string> families;
    std::string family;
    int clusters = 0;
    std::istringstream lines(metrics);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("# TYPE ", 0) == 0) {
            family = line.substr(7, line.find(' ', 7) - 7);
            EXPECT_TRUE(families.insert(family).second) << family << " written twice";
        } else if (!line.empty() && line[0] != '#') {
            EXPECT_EQ(line.rfind(family, 0), 0u) << line << " outside its family " << family;
            clusters += line.rfind("lockscope_monitor_up{", 0) == 0;
        }
    }
    EXPECT_EQ(clusters, 2) << metrics;

    // prod's etcd goes: the exporter says so, by name, and serves staging's series on.
    other.stop();
    std::pair<int, QByteArray> health;
    EXPECT_TRUE(eventually(
        [&] {
            health = httpGet(base + "/healthz");
            return health.first == 503 && health.second.startsWith("prod: not watching");
        },
        20s))
        << health.first << " " << health.second.toStdString();
    EXPECT_FALSE(health.second.contains("staging")) << health.second.toStdString();
    EXPECT_NE(httpGet(base + "/metrics").second.toStdString().find(held("staging", "here")),
              std::string::npos);
    exporter->signal(SIGTERM);
    EXPECT_EQ(exporter->wait(15s), 0);

    // Each cluster recorded as a source of its own into the one file, its own lock only.
    const auto [several, sources] = run({"history", recording});
    EXPECT_EQ(several, 1); // it cannot tell which to read: it lists them
    EXPECT_TRUE(says(sources, cluster().endpointList())) << sources.size();
    EXPECT_TRUE(says(sources, prod));
    for (const auto& [source, lock, notLock] :
         {std::tuple{"1", "here", "there"}, std::tuple{"2", "there", "here"}}) {
        const auto [code, events] = run({"history", recording, "--source", source});
        EXPECT_EQ(code, 0);
        EXPECT_TRUE(says(events, prefix() + lock)) << source;
        EXPECT_FALSE(says(events, prefix() + notLock)) << source;
    }
}

} // namespace
