// lockscopectl against a TLS etcd: its commands work over TLS, and each way of getting TLS (or
// the endpoint) wrong prints one line that names the cause, with none of gRPC's own lines.
#include "etcdclient/blocking.h"
#include "process/child_process.h"
#include "support/etcd_fixture.h"
#include "support/waiting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace etcd;
using namespace std::chrono_literals;
using namespace lockscope::process;
using namespace lockscope::test;

namespace {

struct CtlRun {
    std::optional<int> exitCode;
    std::vector<std::string> lines;
};

// Runs lockscopectl with `args` and collects what it writes to stderr only (or with
// `withStdout`, both) until it exits.
CtlRun runLockscopectl(const std::vector<std::string>& args, bool withStdout = false) {
    std::vector<std::string> argv = {
        "sh", "-c", withStdout ? "exec \"$0\" \"$@\" 2>&1" : "exec \"$0\" \"$@\" 2>&1 >/dev/null",
        LOCKSCOPECTL};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildProcess child(argv);
    CtlRun run;
    while (auto line = child.readLine(30s))
        run.lines.push_back(*line);
    run.exitCode = child.wait(10s);
    return run;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

class LockscopectlTlsIntegrationTest : public EtcdTlsTest {
protected:
    // --endpoints and the TLS flags of the suite's cluster, with `ca`, `cert`, `key` instead
    // where given ("-" leaves a flag out).
    static std::vector<std::string> flags(std::string ca = "", std::string cert = "",
                                          std::string key = "") {
        const TestCertificates& pki = certificates();
        std::vector<std::string> out = {"--endpoints", cluster().endpointList()};
        const auto add = [&](const char* flag, const std::string& given, const std::string& own) {
            if (given != "-")
                out.insert(out.end(), {flag, given.empty() ? own : given});
        };
        add("--cacert", ca, pki.caFile);
        add("--cert", cert, pki.clientCertFile);
        add("--key", key, pki.clientKeyFile);
        return out;
    }
    static std::vector<std::string> with(std::vector<std::string> head,
                                         const std::vector<std::string>& tail) {
        head.insert(head.end(), tail.begin(), tail.end());
        return head;
    }
    static std::string hostPort() { return cluster().endpoint(0).substr(8); } // after https://

    // `status` with these flags fails with exactly one stderr line holding `expected`.
    static void expectOneClearLine(const std::vector<std::string>& connection,
                                   const std::string& expected, int exitCode) {
        const CtlRun run = runLockscopectl(with(connection, {"status"}));
        EXPECT_EQ(run.exitCode, exitCode) << joined(run.lines);
        ASSERT_EQ(run.lines.size(), 1u) << joined(run.lines);
        EXPECT_EQ(run.lines[0].rfind("lockscopectl: ", 0), 0u) << run.lines[0];
        EXPECT_NE(run.lines[0].find(expected), std::string::npos) << run.lines[0];
        if (expected.find("nothing listens") == std::string::npos) {
            EXPECT_EQ(run.lines[0].find("etcd is running"), std::string::npos) << run.lines[0];
        }
    }
};

} // namespace

TEST_F(LockscopectlTlsIntegrationTest, StatusSnapshotWatchAndLockWorkOverTls) {
    const CtlRun status = runLockscopectl(with(flags(), {"status", "--json"}), true);
    ASSERT_EQ(status.exitCode, 0) << joined(status.lines);
    const auto rows = QJsonDocument::fromJson(QByteArray::fromStdString(joined(status.lines)));
    ASSERT_TRUE(rows.isArray()) << joined(status.lines);
    EXPECT_TRUE(rows[0]["error"].isNull()) << joined(status.lines);
    EXPECT_FALSE(rows[0]["version"].toString().isEmpty());

    // lock runs the command while holding the lock and exits with its status.
    const CtlRun lock = runLockscopectl(
        with(flags(), {"lock", prefix() + "job", "--", "sh", "-c", "exit 7"}), true);
    EXPECT_EQ(lock.exitCode, 7) << joined(lock.lines);

    ChildProcess watch(with({LOCKSCOPECTL}, with(flags(), {"watch", prefix()})));
    ASSERT_TRUE(eventually([&] {
        const auto line = watch.readLine(1s);
        return line && line->find("watching") != std::string::npos;
    }));
    auto session = createSession(*client, 10);
    auto mutex = Mutex::create(*client, session, prefix() + "held");
    ASSERT_TRUE(lockAsync(*mutex).get().ok());
    ASSERT_TRUE(eventually([&] {
        const auto line = watch.readLine(1s);
        return line && line->find(mutex->key()) != std::string::npos;
    })) << "the watch never showed the lock";

    const CtlRun snapshot = runLockscopectl(with(flags(), {"snapshot", prefix(), "--json"}), true);
    ASSERT_EQ(snapshot.exitCode, 0) << joined(snapshot.lines);
    const auto state = QJsonDocument::fromJson(QByteArray::fromStdString(joined(snapshot.lines)));
    const QJsonArray locks = state["locks"].toArray();
    ASSERT_EQ(locks.size(), 1) << joined(snapshot.lines);
    EXPECT_EQ(locks[0]["holder"]["key"].toString().toStdString(), mutex->key());
    EXPECT_TRUE(unlockNow(*mutex).value());
}

TEST_F(LockscopectlTlsIntegrationTest, EachTlsMistakeIsOneLineNamingIt) {
    const TestCertificates& pki = certificates();
    expectOneClearLine(flags(pki.otherCaFile),
                       "untrusted server certificate (" + hostPort() +
                           "): the server's certificate (issued by 'CN=LockScope test ca') is "
                           "not signed by the CA in --cacert '" +
                           pki.otherCaFile + "'",
                       1);
    expectOneClearLine(flags("", "-", "-"), "client certificate required", 1);
    expectOneClearLine(flags("", pki.otherClientCertFile, pki.otherClientKeyFile),
                       "client certificate rejected", 1);
    expectOneClearLine(flags("", pki.clientKeyFile, pki.clientCertFile),
                       "--cert and --key are swapped", 2);
    expectOneClearLine(
        {"--endpoints", "http://" + hostPort()},
        "wrong scheme (" + hostPort() + "): etcd serves TLS at this address, not plain text", 1);
}

TEST_F(LockscopectlTlsIntegrationTest, PlainTextRefusedAndUnknownHostsAreNamed) {
    LocalCluster plain(1);
    ASSERT_TRUE(plain.start().ok());
    expectOneClearLine(
        {"--endpoints", "https://" + plain.endpoint(0), "--cacert", certificates().caFile},
        "etcd serves plain text at this address, not TLS", 1);
    const std::string stopped = plain.endpoint(0);
    plain.stop();
    expectOneClearLine({"--endpoints", stopped},
                       "connection refused: nothing listens at this address; check that etcd "
                       "is running",
                       1);
    expectOneClearLine({"--endpoints", "no-such-host.invalid:2379"}, "host not found", 2);
}

TEST_F(LockscopectlTlsIntegrationTest, DebugShowsGrpcsOwnLinesPrefixed) {
    const CtlRun quiet = runLockscopectl(with(flags(certificates().otherCaFile), {"status"}));
    const CtlRun debug =
        runLockscopectl(with({"--debug"}, with(flags(certificates().otherCaFile), {"status"})));
    EXPECT_EQ(quiet.lines.size(), 1u) << joined(quiet.lines);
    const std::string all = joined(debug.lines);
    EXPECT_NE(all.find("grpc: E "), std::string::npos) << all;
    EXPECT_NE(all.find("Handshake failed"), std::string::npos) << all;
    EXPECT_NE(all.find("lockscopectl: untrusted server certificate"), std::string::npos) << all;
}
