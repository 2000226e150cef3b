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
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

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
    static bool says(const std::vector<std::string>& lines, const std::string& text) {
        return std::any_of(lines.begin(), lines.end(),
                           [&](const auto& line) { return line.find(text) != std::string::npos; });
    }

    QTemporaryDir config;
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
    lockscope::process::ChildProcess exporter(
        {LOCKSCOPECTL, "--profile", "staging", "exporter", prefix(), "--listen", "127.0.0.1:0"},
        {"XDG_CONFIG_HOME=" + config.path().toStdString()});
    const auto listening = exporter.readLine(10s);
    ASSERT_TRUE(listening);
    const auto from = listening->find("http://");
    ASSERT_NE(from, std::string::npos) << *listening;
    const std::string url =
        listening->substr(from, listening->find("/metrics") - from) + "/metrics";
    const auto scrape = [&] {
        lockscope::process::ChildProcess curl({"curl", "-s", "-f", url});
        std::string out;
        while (auto line = curl.readLine(5s))
            out += *line + "\n";
        curl.wait(5s);
        return out;
    };
    std::string metrics;
    ASSERT_TRUE(eventually(
        [&] {
            metrics = scrape();
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

} // namespace
