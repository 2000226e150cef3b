// `lockscopectl lock -- COMMAND` cut off from etcd must stop before the lock passes on: a proxy
// between it and etcd turns into a black hole (connections stay open, no byte passes) while
// `etcdctl lock` waits on etcd directly. The command is a tree, `sh -c 'writer & writer; wait'`,
// whose writers append the wall-clock time every 50 ms: none may write after the contender got the
// lock, and nothing of the tree may outlive lockscopectl. PARTITION_RUNS runs of each form (more in
// the fault label).
#include "lockscopectl_test.h"
#include "support/black_hole_proxy.h"
#include "support/waiting.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <thread>

using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

// Each writer notes its pid, then appends `date +%s%N` to a file of its own every 50 ms; with
// "ignore" as its third argument it ignores SIGTERM (and so do its date and sleep).
constexpr const char* writerScript = R"(echo $$ >> "$1/pids"
[ "$3" = ignore ] && trap '' TERM
while :; do date +%s%N >> "$1/$2"; sleep 0.05; done
)";

// The last whole number in `path`, or 0.
int64_t lastTimestamp(const std::string& path) {
    std::ifstream in(path);
    int64_t last = 0;
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line.find_first_not_of("0123456789") == std::string::npos)
            last = std::stoll(line);
    return last;
}

class PartitionTest : public LockscopectlTest {
protected:
    void SetUp() override {
        LockscopectlTest::SetUp();
        std::string pattern = ::testing::TempDir() + "partition-XXXXXX";
        ASSERT_TRUE(::mkdtemp(pattern.data()));
        dir_ = pattern;
        std::ofstream(dir_ + "/writer.sh") << writerScript;
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // One run, in a directory of its own: how long before the contender's first timestamp the
    // tree wrote its last (negative: an overlap).
    std::chrono::milliseconds partitionRun(int run, bool writersIgnoreSigterm) {
        const std::string dir = dir_ + "/" + std::to_string(run);
        std::filesystem::create_directory(dir);
        const std::string name = prefix() + "p" + std::to_string(run);
        BlackHoleProxy proxy(cluster().endpointList());
        EXPECT_EQ(proxy.error(), "");
        ChildProcess ours({LOCKSCOPECTL, "--endpoints", proxy.endpoint(), "lock", name, "--ttl",
                           "3", "--", "sh", "-c",
                           R"(echo $$ >> "$0/pids"
                              sh "$0/../writer.sh" "$0" a "$1" & sh "$0/../writer.sh" "$0" b "$1"
                              wait)",
                           dir, writersIgnoreSigterm ? "ignore" : "-"});
        const auto written = [&](const char* writer) {
            return lastTimestamp(dir + "/" + writer) != 0;
        };
        EXPECT_TRUE(eventually([&] { return written("a") && written("b"); }))
            << "the writers did not start";
        auto theirs =
            lockscope::test::etcdctlLock(cluster().endpointList(), name,
                                         {"--", "sh", "-c", "date +%s%N > " + dir + "/contender"});
        EXPECT_TRUE(eventually([&] { return keysUnder(name + "/").size() == 2; }))
            << "etcdctl did not queue";

        proxy.setBlackHole(true);
        EXPECT_TRUE(eventually([&] { return lastTimestamp(dir + "/contender") != 0; }, 20s))
            << "etcdctl never got the lock";
        proxy.setBlackHole(false); // lets lockscopectl's release through
        EXPECT_EQ(ours.wait(20s), 4);
        EXPECT_EQ(theirs->wait(10s), 0);

        std::this_thread::sleep_for(200ms); // a survivor would write four times meanwhile
        std::ifstream pidFile(dir + "/pids");
        const std::vector<pid_t> tree{std::istream_iterator<pid_t>(pidFile),
                                      std::istream_iterator<pid_t>()};
        EXPECT_EQ(tree.size(), 3u);
        for (pid_t pid : tree) {
            EXPECT_TRUE(::kill(pid, 0) != 0 && errno == ESRCH) << pid << " outlived lockscopectl";
            ::kill(pid, SIGKILL); // a survivor would write on forever
        }
        std::string said;
        while (auto line = ours.readLine(100ms))
            said += *line + "\n";
        EXPECT_NE(said.find("no keepalive confirmed since"), std::string::npos) << said;

        const int64_t lastWrite = std::max(lastTimestamp(dir + "/a"), lastTimestamp(dir + "/b"));
        const auto lead = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::nanoseconds(lastTimestamp(dir + "/contender") - lastWrite));
        std::cout << "run " << run << (writersIgnoreSigterm ? " (SIGTERM ignored)" : "")
                  << ": last write " << lead.count() << " ms before the contender's first; "
                  << said;
        return lead;
    }

    // Runs the partition PARTITION_RUNS times; none may overlap the contender.
    void partitionRuns(bool writersIgnoreSigterm) {
        auto worst = std::chrono::milliseconds::max();
        for (int run = 0; run < PARTITION_RUNS && !HasFatalFailure(); ++run) {
            const auto lead = partitionRun(run, writersIgnoreSigterm);
            EXPECT_GE(lead.count(), 0) << "run " << run << ": the tree wrote " << -lead.count()
                                       << " ms after the contender took the lock";
            worst = std::min(worst, lead);
        }
        std::cout << "closest of " << PARTITION_RUNS << " runs: last write " << worst.count()
                  << " ms before the contender's first\n";
    }

private:
    std::string dir_;
};

// Each program's suite has a name of its own (PARTITION_SUITE), so that ctest's names, and the
// fault label, tell the two apart.
using PARTITION_SUITE = PartitionTest;

TEST_F(PARTITION_SUITE, ACutOffHoldersTreeStopsWritingBeforeTheContenderTakesOver) {
    partitionRuns(false);
}

TEST_F(PARTITION_SUITE, AWriterIgnoringSigtermIsKilledBeforeTheContenderTakesOver) {
    partitionRuns(true);
}

} // namespace
