// `lockscopectl exporter` scraped with curl while real `etcdctl lock` contenders churn; the
// text must pass `promtool check metrics` and agree with `lockscopectl snapshot --json`.
#include "etcdclient/blocking.h"
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/mutex.h"
#include "lockscopectl_test.h"
#include "support/local_etcd.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <fstream>
#include <map>

using namespace std::chrono_literals;
using namespace lockscope::test;

namespace {

// Runs `program args`, feeding it `input`; its exit code and stdout (stderr with it).
std::pair<int, QByteArray> run(const QString& program, const QStringList& args,
                               const QByteArray& input = {}) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(30000))
        return {-1, "timed out"};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            process.readAll()};
}

// Sample lines by their name and labels as written, e.g. `lockscope_lock_held{lock="/a"}`.
std::map<std::string, double> samples(const QByteArray& text) {
    std::map<std::string, double> out;
    for (const QByteArray& line : text.split('\n')) {
        const int space = line.lastIndexOf(' ');
        if (line.isEmpty() || line.startsWith('#') || space < 0)
            continue;
        out[line.left(space).toStdString()] = line.mid(space + 1).toDouble();
    }
    return out;
}

class ExporterIntegrationTest : public LockscopectlTest {
protected:
    // Starts the exporter on a free port (on the suite's etcd unless `endpoints` names
    // another); returns its base URL ("" if it did not say one).
    std::string startExporter(std::vector<std::string> extra = {}, std::string endpoints = {}) {
        std::vector<std::string> args = {"exporter", prefix(), "--listen", "127.0.0.1:0"};
        args.insert(args.end(), extra.begin(), extra.end());
        exporter = endpoints.empty() ? lockscopectl(args) : lockscopectlOn(endpoints, args);
        const auto line = exporter->readLine(10s);
        static const QRegularExpression url("(http://[0-9.:]+)/metrics");
        const auto match = url.match(QString::fromStdString(line.value_or("")));
        return match.hasMatch() ? match.captured(1).toStdString() : std::string();
    }
    std::pair<int, QByteArray> get(const std::string& url) {
        return run("curl", {"-s", "-S", "-f", QString::fromStdString(url)});
    }
    QByteArray scrape(const std::string& base) {
        auto [code, body] = get(base + "/metrics");
        EXPECT_EQ(code, 0) << body.toStdString();
        return body;
    }
    // The lock's name as the `lock` label shows it.
    std::string series(const std::string& metric, const std::string& lock,
                       const std::string& more = "") {
        return metric + "{lock=\"" + lock + "\"" + more + "}";
    }

    std::unique_ptr<lockscope::process::ChildProcess> exporter;
};

TEST_F(ExporterIntegrationTest, ScrapesPassPromtoolUnderChurnAndMatchTheSnapshot) {
    const std::string base = startExporter();
    ASSERT_FALSE(base.empty());
    ASSERT_TRUE(eventually([&] { return get(base + "/healthz").first == 0; }))
        << "/healthz never said the monitor is live";

    // A holder that stays, with one waiter, beside churning short holds on another lock.
    const std::string held = prefix() + "held", churn = prefix() + "churn";
    auto holder = etcdctlLock(held);
    ASSERT_TRUE(holder->readLine(10s));
    auto waiter = etcdctlLock(held);
    constexpr int contenders = 4;
    std::vector<std::unique_ptr<lockscope::process::ChildProcess>> churners;
    for (int i = 0; i < contenders; ++i)
        churners.push_back(
            lockscope::test::etcdctlLock(cluster().endpointList(), churn, {"sleep", "0.3"}));
    for (int i = 0; i < 3; ++i) { // while they come and go
        const auto [code, report] = run("promtool", {"check", "metrics"}, scrape(base));
        EXPECT_EQ(code, 0) << report.toStdString();
        std::this_thread::sleep_for(200ms);
    }
    for (auto& churner : churners)
        EXPECT_EQ(churner->wait(30s), 0);

    // The same revision in both: the exporter has seen every change the snapshot has.
    QJsonObject snapshot;
    std::map<std::string, double> figures;
    ASSERT_TRUE(eventually([&] {
        auto process = lockscopectl({"snapshot", prefix(), "--json"});
        const auto line = process->readLine(10s);
        snapshot = QJsonDocument::fromJson(QByteArray::fromStdString(line.value_or(""))).object();
        figures = samples(scrape(base));
        return snapshot["revision"].toInteger() == figures["lockscope_monitor_revision"];
    })) << "the exporter never reached the snapshot's revision";
    const QJsonArray locks = snapshot["locks"].toArray();
    ASSERT_EQ(locks.size(), 1) << "only the held lock is left";
    const QJsonObject heldLock = locks[0].toObject();
    EXPECT_EQ(figures[series("lockscope_lock_held", held)], 1);
    EXPECT_EQ(figures[series("lockscope_lock_waiters", held)],
              heldLock["waiters"].toArray().size());
    EXPECT_EQ(figures[R"(lockscope_locks{recipe="mutex"})"], 1);
    const double ttl = figures[series("lockscope_lease_ttl_remaining_seconds", held)];
    EXPECT_GT(ttl, 0);
    EXPECT_LE(ttl, heldLock["holder"].toObject()["granted_ttl"].toDouble());

    // Every contender was seen taking the churning lock, and it is free now.
    EXPECT_EQ(figures[series("lockscope_lock_acquisitions_total", churn)], contenders);
    EXPECT_EQ(figures[series("lockscope_lock_held", churn)], 0);
    EXPECT_EQ(figures.count(series("lockscope_lease_ttl_remaining_seconds", churn)), 0u);
    EXPECT_GE(figures[series("lockscope_lock_handoffs_total", churn)], 1);
    EXPECT_EQ(figures["lockscope_lock_hold_seconds_count"], contenders);
    EXPECT_GE(figures["lockscope_lock_wait_seconds_count"], contenders);
    EXPECT_EQ(figures["lockscope_monitor_up"], 1);
    // Keys and leases never become labels.
    const QByteArray text = scrape(base);
    EXPECT_FALSE(text.contains(heldLock["holder"].toObject()["lease_hex"].toString().toUtf8()));
}

TEST_F(ExporterIntegrationTest, MaxLocksAddsTheRestUpAsOther) {
    std::vector<std::unique_ptr<lockscope::process::ChildProcess>> holders;
    for (const char* name : {"a", "b", "c"}) {
        holders.push_back(etcdctlLock(prefix() + name));
        ASSERT_TRUE(holders.back()->readLine(10s));
    }
    holders.push_back(etcdctlLock(prefix() + "c")); // a waiter on an aggregated lock
    const std::string base = startExporter({"--max-locks", "1"});
    ASSERT_FALSE(base.empty());
    std::map<std::string, double> figures;
    ASSERT_TRUE(eventually([&] {
        figures = samples(scrape(base));
        return figures[series("lockscope_lock_waiters", "(other)")] == 1;
    })) << "the waiter on an aggregated lock was never counted";
    EXPECT_EQ(figures[series("lockscope_lock_held", prefix() + "a")], 1);
    EXPECT_EQ(figures[series("lockscope_lock_held", "(other)")], 2);
    EXPECT_EQ(figures.count(series("lockscope_lock_held", prefix() + "b")), 0u);
    EXPECT_EQ(figures[R"(lockscope_locks{recipe="mutex"})"], 3);
}

TEST_F(ExporterIntegrationTest, HolderWhoseLeaseRunsOutIsALoss) {
    const std::string base = startExporter();
    ASSERT_FALSE(base.empty());
    ASSERT_TRUE(eventually([&] { return get(base + "/healthz").first == 0; }));
    etcd::pb::LeaseGrantRequest grant; // never kept alive
    grant.set_ttl(2);
    const auto lease = etcd::call(*client, &etcd::Client::leaseGrant, grant);
    ASSERT_TRUE(lease);
    const std::string name = prefix() + "stalled";
    etcd::pb::PutRequest put;
    put.set_key(name + "/" + etcd::leaseHex(lease->id()));
    put.set_lease(lease->id());
    ASSERT_TRUE(etcd::call(*client, &etcd::Client::put, put));
    const std::string losses = series("lockscope_lock_losses_total", name, ",reason=\"expired\"");
    ASSERT_TRUE(eventually([&] { return samples(scrape(base))[losses] == 1; }, 15s))
        << "the expiry was never counted";
    const auto figures = samples(scrape(base));
    EXPECT_EQ(figures.at(series("lockscope_lock_held", name)), 0);
    EXPECT_EQ(figures.at(series("lockscope_lock_acquisitions_total", name)), 1);
}

// Two sessions' keys laid out as a deadlock (each holds one lock and waits for the other's, as
// two Go sessions leave them), and a third session waiting behind one of them: the exporter counts
// the cycle and the blocked sessions, and the cycle is gone once one of its leases is revoked.
TEST_F(ExporterIntegrationTest, ADeadlockIsCountedWhileItLasts) {
    const std::string base = startExporter();
    ASSERT_FALSE(base.empty());
    ASSERT_TRUE(eventually([&] { return get(base + "/healthz").first == 0; }));
    auto grant = [&] {
        etcd::pb::LeaseGrantRequest request;
        request.set_ttl(60);
        const auto lease = etcd::call(*client, &etcd::Client::leaseGrant, request);
        EXPECT_TRUE(lease);
        return lease ? lease->id() : 0;
    };
    auto put = [&](const std::string& lock, int64_t lease) {
        etcd::pb::PutRequest request;
        request.set_key(prefix() + lock + "/" + etcd::leaseHex(lease));
        request.set_lease(lease);
        EXPECT_TRUE(etcd::call(*client, &etcd::Client::put, request));
    };
    const int64_t a = grant(), b = grant(), c = grant();
    put("one", a);
    put("two", b);
    put("two", a);
    put("one", b);
    put("one", c);
    ASSERT_TRUE(eventually([&] { return samples(scrape(base))["lockscope_deadlocks"] == 1; }))
        << "the deadlock was never counted";
    const auto figures = samples(scrape(base));
    EXPECT_EQ(figures.at("lockscope_blocked_sessions"), 3);
    EXPECT_EQ(figures.count(series("lockscope_root_blocker_waiters", prefix() + "one")), 0u)
        << "a lock held inside a cycle has no root blocker";

    etcd::pb::LeaseRevokeRequest revoke;
    revoke.set_id(a);
    ASSERT_TRUE(etcd::call(*client, &etcd::Client::leaseRevoke, revoke));
    ASSERT_TRUE(eventually([&] { return samples(scrape(base))["lockscope_deadlocks"] == 0; }))
        << "the deadlock outlived its lease";
    // b holds both locks now, and c waits behind it.
    const auto after = samples(scrape(base));
    EXPECT_EQ(after.at("lockscope_blocked_sessions"), 1);
    EXPECT_EQ(after.at(series("lockscope_root_blocker_waiters", prefix() + "one")), 1);
}

// A printed measurement: scrape time and the exporter's memory with 10,000 held locks, each
// with its own series.
TEST_F(ExporterIntegrationTest, ScrapesTenThousandLocks) {
    constexpr int lockCount = 10000;
    etcd::pb::LeaseGrantRequest grant;
    grant.set_ttl(120);
    const auto lease = etcd::call(*client, &etcd::Client::leaseGrant, grant);
    ASSERT_TRUE(lease);
    for (int first = 0; first < lockCount; first += 128) { // etcd takes 128 operations a Txn
        etcd::pb::TxnRequest txn;
        for (int i = first; i < std::min(lockCount, first + 128); ++i) {
            auto* put = txn.add_success()->mutable_request_put();
            put->set_key(prefix() + "lock" + std::to_string(i) + "/" + etcd::leaseHex(lease->id()));
            put->set_lease(lease->id());
        }
        ASSERT_TRUE(etcd::call(*client, &etcd::Client::txn, txn));
    }
    const std::string base = startExporter({"--max-locks", std::to_string(lockCount)});
    ASSERT_FALSE(base.empty());
    ASSERT_TRUE(eventually(
        [&] { return samples(scrape(base))[R"(lockscope_locks{recipe="mutex"})"] == lockCount; },
        60s));

    constexpr int scrapes = 5;
    QByteArray text;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < scrapes; ++i)
        text = scrape(base);
    const double scrapeMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count() /
        scrapes;
    std::ifstream status("/proc/" + std::to_string(exporter->pid()) + "/status");
    std::string line, residentKb;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0)
            residentKb = line.substr(line.find_first_not_of(" \t", 6));
    const auto figures = samples(text);
    EXPECT_EQ(figures.at("lockscope_lock_held{lock=\"" + prefix() + "lock9999\"}"), 1);
    EXPECT_EQ(figures.at("lockscope_lock_held{lock=\"(other)\"}"), 0) << "every lock has its own";
    std::printf("exporter with %d locks: %.1f ms a scrape (curl included), %d KiB of text, "
                "resident %s\n",
                lockCount, scrapeMs, static_cast<int>(text.size() / 1024), residentKb.c_str());
    EXPECT_LT(scrapeMs, 5000) << "a scrape of 10k locks must fit Prometheus's default timeout";
}

// etcd's NOSPACE alarm, under which every write is refused, is named everywhere, not only as a
// write's "database space exceeded". On an etcd with a 1 MiB quota, filled until it refuses:
// status (table and JSON), the exporter's lockscope_etcd_alarm and /healthz name the alarm, and a
// write names it and its cure; after the cure (delete, compact, defrag, alarm disarm) all say it
// is gone.
TEST_F(ExporterIntegrationTest, NospaceAlarmIsNamedUntilItIsCured) {
    LocalEtcd small;
    ASSERT_TRUE(small.start(1, {}, {"--quota-backend-bytes=1048576"})) << small.error();
    const std::string endpoints = small.cluster().endpointList();
    etcd::Client& writer = small.client();
    const std::string base = startExporter({}, endpoints);
    ASSERT_FALSE(base.empty());
    const std::string noSpace = R"(lockscope_etcd_alarm{kind="NOSPACE"})";
    ASSERT_TRUE(eventually([&] { return samples(scrape(base)).count(noSpace) == 1; }));
    EXPECT_EQ(samples(scrape(base))[noSpace], 0);
    EXPECT_EQ(httpGet(base + "/healthz"), std::make_pair(200, QByteArray("ok")));
    auto status = [&] {
        auto child = lockscopectlOn(endpoints, {"status", "--json"});
        std::string out;
        while (auto line = child->readLine(15s))
            out += *line + "\n";
        child->wait(15s);
        // stderr's lines come first or last; the JSON array is the line that starts with '['
        const auto json = QJsonDocument::fromJson(QByteArray::fromStdString(
            out.substr(out.find('['), out.rfind(']') - out.find('[') + 1)));
        return json.array().at(0).toObject();
    };
    EXPECT_EQ(status()["alarms"].toArray(), QJsonArray());
    EXPECT_TRUE(status()["error"].isNull());

    const etcd::Error refused = fillUntilRefused(writer, "/fill/");
    ASSERT_FALSE(refused.ok()) << "1 MiB of quota took 12.8 MB";
    EXPECT_NE(refused.message.find("NOSPACE alarm"), std::string::npos) << refused.message;
    EXPECT_NE(refused.message.find("etcdctl alarm disarm"), std::string::npos) << refused.message;

    ASSERT_TRUE(eventually([&] { return samples(scrape(base))[noSpace] == 1; }));
    const auto [code, body] = httpGet(base + "/healthz");
    EXPECT_EQ(code, 503);
    EXPECT_TRUE(body.startsWith("etcd alarm: NOSPACE on member ")) << body.toStdString();
    EXPECT_TRUE(body.contains("etcdctl alarm disarm")) << body.toStdString();
    const QJsonObject raised = status();
    EXPECT_EQ(raised["alarms"].toArray(), QJsonArray({"NOSPACE"}));
    EXPECT_TRUE(raised["error"].toString().startsWith("NOSPACE on member "))
        << raised["error"].toString().toStdString();
    EXPECT_FALSE(raised["revision"].isNull()) << "the member answered: its figures are known";
    auto table = lockscopectlOn(endpoints, {"status"});
    std::string tableText;
    while (auto line = table->readLine(15s))
        tableText += *line + "\n";
    EXPECT_EQ(table->wait(15s), 0);
    EXPECT_NE(tableText.find("NOSPACE on member"), std::string::npos) << tableText;

    // etcd's own cure, with etcdctl: deletes are still allowed.
    ASSERT_EQ(etcdctl(endpoints, {"del", "--prefix", "/fill/"}).exitCode, 0);
    const auto revision = etcd::call(writer, &etcd::Client::status, etcd::pb::StatusRequest());
    ASSERT_TRUE(revision);
    ASSERT_EQ(
        etcdctl(endpoints, {"compact", std::to_string(revision->header().revision())}).exitCode, 0);
    ASSERT_EQ(etcdctl(endpoints, {"defrag"}).exitCode, 0);
    ASSERT_EQ(etcdctl(endpoints, {"alarm", "disarm"}).exitCode, 0);
    ASSERT_TRUE(eventually([&] { return samples(scrape(base))[noSpace] == 0; }));
    EXPECT_EQ(httpGet(base + "/healthz"), std::make_pair(200, QByteArray("ok")));
    const QJsonObject cured = status();
    EXPECT_EQ(cured["alarms"].toArray(), QJsonArray());
    EXPECT_TRUE(cured["error"].isNull());
    etcd::pb::PutRequest put;
    put.set_key("/fill/after");
    EXPECT_TRUE(etcd::call(writer, &etcd::Client::put, put)) << "still refused after the cure";
}

TEST_F(ExporterIntegrationTest, BadListenAndMaxLocksAreUsageErrors) {
    auto badListen = lockscopectl({"exporter", prefix(), "--listen", "localhost"});
    EXPECT_EQ(badListen->readLine(10s).value_or(""),
              "lockscopectl: --listen wants HOST:PORT with an IP address, like 127.0.0.1:9464, "
              "not \"localhost\"");
    EXPECT_EQ(badListen->wait(10s), 2);
    auto badMax = lockscopectl({"exporter", prefix(), "--max-locks", "0"});
    EXPECT_EQ(badMax->readLine(10s).value_or(""),
              "lockscopectl: --max-locks wants a whole number of at least 1, not \"0\"");
    EXPECT_EQ(badMax->wait(10s), 2);

    const std::string base = startExporter(); // holds its port
    ASSERT_FALSE(base.empty());
    const std::string taken = base.substr(std::string("http://").size());
    auto second = lockscopectl({"exporter", prefix(), "--listen", taken});
    EXPECT_EQ(second->readLine(10s).value_or(""),
              "lockscopectl: cannot listen on " + taken + ": The bound address is already in use");
    EXPECT_EQ(second->wait(10s), 1);
}

} // namespace
