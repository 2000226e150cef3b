// `lockscopectl exporter` and `watch --json` cut off from etcd, by a black-hole proxy (the
// connections stay open, no byte passes) or by a member stopped outright (SIGSTOP): within about
// a second of the silence the client can notice, /healthz answers 503 saying since when, and
// watch prints a "stale" event; once etcd answers again, /healthz is 200 and watch prints one
// "resynced" event with the revision it re-read, followed by what the gap hid, marked recovered.
#include "etcdclient/locks/lock_monitor.h"
#include "lockscopectl_test.h"
#include "support/black_hole_proxy.h"
#include "support/local_etcd.h"
#include "support/waiting.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <csignal>
#include <iostream>
#include <map>
#include <thread>

using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

using Clock = std::chrono::steady_clock;

// How long after etcd fell silent the signals may come: the monitor's staleness limit, and a
// second for its check (every 250 ms), the process and the test's polling.
constexpr auto allowed = etcd::LockMonitor::staleAfter + 1s;

long long ms(Clock::duration duration) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(duration).count();
}

// The next line of `child` that is a JSON object whose "event" is `event`, within `timeout`.
std::optional<QJsonObject> nextJsonEvent(lockscope::process::ChildProcess& child,
                                         const QString& event,
                                         std::chrono::milliseconds timeout = 20s) {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        const auto line = child.readLine(std::max(left, 1ms));
        if (!line)
            return std::nullopt;
        const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(*line));
        if (doc.isObject() && doc["event"].toString() == event)
            return doc.object();
    }
    return std::nullopt;
}

class OutageTest : public LockscopectlTest {
protected:
    // The exporter through `endpoint`; its base URL once /healthz says ok.
    std::string startExporter(const std::string& endpoint) {
        exporter_ = lockscopectlOn(endpoint, {"exporter", prefix(), "--listen", "127.0.0.1:0"});
        static const QRegularExpression url("(http://[0-9.:]+)/metrics");
        const auto match = url.match(QString::fromStdString(exporter_->readLine(10s).value_or("")));
        const std::string base = match.hasMatch() ? match.captured(1).toStdString() : "";
        EXPECT_FALSE(base.empty()) << "the exporter said no URL";
        EXPECT_TRUE(eventually([&] { return httpGet(base + "/healthz").first == 200; }, 20s))
            << "the exporter never became healthy";
        return base;
    }

    // Cuts etcd off with `cut`, and checks that /healthz says so in time and recovers after
    // `restore`.
    void expectHealthzFollows(const std::string& base, const std::function<void()>& cut,
                              const std::function<void()>& restore) {
        cut();
        const auto cutAt = Clock::now();
        std::pair<int, QByteArray> health;
        ASSERT_TRUE(eventually(
            [&] {
                health = httpGet(base + "/healthz");
                return health.first == 503;
            },
            30s))
            << "healthz still says " << health.first << " " << health.second.toStdString();
        const auto noticed = Clock::now() - cutAt;
        std::cout << "healthz 503 after " << ms(noticed) << " ms\n";
        EXPECT_LT(noticed, allowed)
            << "503 after "
            << std::chrono::duration_cast<std::chrono::milliseconds>(noticed).count() << " ms";
        EXPECT_TRUE(health.second.startsWith("not watching since ")) << health.second.toStdString();
        EXPECT_TRUE(health.second.contains("no answer from etcd")) << health.second.toStdString();
        restore();
        EXPECT_TRUE(eventually([&] { return httpGet(base + "/healthz").first == 200; }, 30s))
            << "healthz did not recover";
    }

    std::unique_ptr<lockscope::process::ChildProcess> exporter_;
};

TEST_F(OutageTest, ExporterHealthzAnswers503WithinASecondOfABlackHoleAndRecovers) {
    BlackHoleProxy proxy(cluster().endpointList());
    ASSERT_EQ(proxy.error(), "");
    const std::string base = startExporter(proxy.endpoint());
    ASSERT_FALSE(base.empty());
    expectHealthzFollows(
        base, [&] { proxy.setBlackHole(true); }, [&] { proxy.setBlackHole(false); });
}

TEST_F(OutageTest, ExporterHealthzAnswers503WithinASecondOfEtcdStoppingAndRecovers) {
    // An etcd of its own: stopping the suite's would stop the other tests' too.
    auto own = startCluster();
    ASSERT_TRUE(own) << own.error().message;
    const std::string base = startExporter((*own)->endpointList());
    ASSERT_FALSE(base.empty());
    const pid_t member = (*own)->pid(0);
    expectHealthzFollows(
        base, [&] { ::kill(member, SIGSTOP); }, [&] { ::kill(member, SIGCONT); });
}

TEST_F(OutageTest, WatchSaysStaleWithinASecondOfABlackHoleAndResyncsAtTheRevisionReRead) {
    BlackHoleProxy proxy(cluster().endpointList());
    ASSERT_EQ(proxy.error(), "");
    auto watch = lockscopectlOn(proxy.endpoint(), {"watch", prefix(), "--json"});
    ASSERT_EQ(watch->readLine(10s), std::optional<std::string>("lockscopectl: watching"));
    // A hold seen live that ends in the gap: the re-read knows only that it lasted at least
    // until the gap began, and at most until the re-read (heldFrom..heldTo bounds it from
    // outside, seenHeld..letGo from inside).
    const auto heldFrom = Clock::now();
    auto held = etcdctlLock(prefix() + "held");
    const auto heldKey = held->readLine(10s);
    ASSERT_TRUE(heldKey);
    ASSERT_TRUE(nextJsonEvent(*watch, "acquired"));
    const auto seenHeld = Clock::now();
    std::this_thread::sleep_for(1s); // held, and seen held, for a while before the gap

    proxy.setBlackHole(true);
    const auto cutAt = Clock::now();
    const auto stale = nextJsonEvent(*watch, "stale");
    ASSERT_TRUE(stale) << "no stale event";
    const auto noticed = Clock::now() - cutAt;
    std::cout << "stale event after " << ms(noticed) << " ms\n";
    EXPECT_LT(noticed, allowed) << "stale after " << ms(noticed) << " ms";
    EXPECT_FALSE((*stale)["since"].toString().isEmpty());
    EXPECT_TRUE((*stale)["reason"].toString().contains("no answer from etcd"))
        << (*stale)["reason"].toString().toStdString();

    const auto letGo = Clock::now();
    held->signal(SIGINT);
    EXPECT_TRUE(held->wait(10s));
    const auto heldTo = Clock::now();
    // A lock taken during the gap, straight on etcd: the watch learns of it from the re-read.
    auto holder = etcdctlLock(prefix() + "gap");
    const auto key = holder->readLine(10s);
    ASSERT_TRUE(key);
    std::this_thread::sleep_for(1500ms); // a gap longer than the hold's end within it
    proxy.setBlackHole(false);
    const auto resynced = nextJsonEvent(*watch, "resynced");
    ASSERT_TRUE(resynced) << "no resynced event";
    EXPECT_EQ((*resynced)["since"], (*stale)["since"]);
    EXPECT_GE((*resynced)["until"].toString(), (*resynced)["since"].toString());
    EXPECT_GT((*resynced)["revision"].toInteger(), 0);
    // What the re-read recovered, by event and key.
    std::map<std::pair<QString, std::string>, QJsonObject> recovered;
    while (recovered.size() < 3) {
        const auto line = watch->readLine(10s);
        ASSERT_TRUE(line) << "the re-read did not report the gap's events";
        const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(*line));
        if (doc.isObject())
            recovered[{doc["event"].toString(), doc["key"].toString().toStdString()}] =
                doc.object();
    }
    const QJsonObject acquired = recovered[{"acquired", *key}];
    ASSERT_FALSE(acquired.isEmpty()) << "the lock taken in the gap was not reported";
    EXPECT_TRUE(acquired["recovered"].toBool());
    EXPECT_LE(acquired["revision"].toInteger(), (*resynced)["revision"].toInteger());
    EXPECT_TRUE(acquired["waited_ms"].isNull()) << "a wait that began and ended unseen";
    const QJsonObject released = recovered[{"released", *heldKey}];
    ASSERT_FALSE(released.isEmpty()) << "the hold that ended in the gap was not reported";
    EXPECT_TRUE(released["recovered"].toBool());
    EXPECT_TRUE(released["at_least"].toBool());
    EXPECT_LE(released["held_ms"].toInteger(), ms(heldTo - heldFrom))
        << "a recovered hold longer than it was";
    EXPECT_GE(released["held_at_most_ms"].toInteger(), ms(letGo - seenHeld))
        << "a recovered hold's upper bound shorter than it was";
    EXPECT_GE(released["held_at_most_ms"].toInteger(), released["held_ms"].toInteger());
    holder->signal(SIGINT);
    EXPECT_TRUE(holder->wait(10s));
    watch->signal(SIGINT);
    EXPECT_EQ(watch->wait(10s), 0);
}

} // namespace
