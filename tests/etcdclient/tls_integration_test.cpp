// The client against a TLS etcd (https only, client certificates required): calls, watches and
// locks work, and each way of getting TLS wrong gets an Error that names it.
#include "etcdclient/blocking.h"
#include "support/etcd_fixture.h"
#include "support/waiting.h"
#include "support/watch_log.h"

#include <atomic>

using namespace etcd;
using lockscope::test::EtcdTlsTest;
using lockscope::test::eventually;
using lockscope::test::lockAsync;
using lockscope::test::WatchLog;

class TlsIntegrationTest : public EtcdTlsTest {
protected:
    // What a Status call with `options` gets: the reply's error, or the client's at creation.
    static Error statusError(const ClientOptions& options) {
        auto created = Client::create(options);
        if (!created)
            return created.error();
        auto reply = call(**created, &Client::status, pb::StatusRequest{});
        return reply ? Error() : reply.error();
    }
    static ClientOptions suiteOptions() { return cluster().clientOptions(); }
    // "127.0.0.1:port", the suite's member without its scheme.
    static std::string hostPort() {
        return cluster().endpoint(0).substr(std::string("https://").size());
    }
};

namespace {

bool mentions(const Error& error, const std::string& text) {
    return error.message.find(text) != std::string::npos;
}

} // namespace

TEST_F(TlsIntegrationTest, KeysWatchesAndLocksWorkOverTls) {
    auto status = call(*client, &Client::status, pb::StatusRequest{});
    ASSERT_TRUE(status) << status.error().message;
    EXPECT_NE(status->leader(), 0u);

    pb::PutRequest put;
    put.set_key(prefix() + "k");
    put.set_value("over tls");
    auto written = call(*client, &Client::put, put);
    ASSERT_TRUE(written) << written.error().message;
    std::atomic<int> events{0};
    pb::WatchCreateRequest watchRequest;
    watchRequest.set_key(prefix() + "k");
    watchRequest.set_start_revision(written->header().revision()); // the put is history now
    auto watch = client->watch(
        watchRequest, {[&](const pb::WatchResponse& r) { events += r.events_size(); }, {}});
    EXPECT_TRUE(eventually([&] { return events.load() == 1; }));

    auto session = createSession(*client, 10);
    ASSERT_TRUE(session);
    auto mutex = Mutex::create(*client, session, prefix() + "lock");
    ASSERT_TRUE(lockAsync(*mutex).get().ok());
    EXPECT_EQ(mutex->state(), Mutex::State::Held);
    EXPECT_TRUE(unlockNow(*mutex).value());
}

TEST_F(TlsIntegrationTest, AServerCertificateFromAnotherCaIsNamedUntrusted) {
    ClientOptions options = suiteOptions();
    options.caFile = certificates().otherCaFile;
    const Error error = statusError(options);
    EXPECT_EQ(error.code, ErrorCode::TlsUntrustedServer) << error.message;
    EXPECT_TRUE(mentions(error, certificates().otherCaFile)) << error.message;
    EXPECT_FALSE(mentions(error, "etcd is running")) << error.message;
}

TEST_F(TlsIntegrationTest, NoClientCertificateIsNamedAsRequired) {
    ClientOptions options = suiteOptions();
    options.certFile.clear();
    options.keyFile.clear();
    const Error error = statusError(options);
    EXPECT_EQ(error.code, ErrorCode::TlsClientCertRequired) << error.message;
    EXPECT_TRUE(mentions(error, "--cert")) << error.message;
}

TEST_F(TlsIntegrationTest, AClientCertificateFromAnotherCaIsNamedRejected) {
    ClientOptions options = suiteOptions();
    options.certFile = certificates().otherClientCertFile;
    options.keyFile = certificates().otherClientKeyFile;
    const Error error = statusError(options);
    EXPECT_EQ(error.code, ErrorCode::TlsClientCertRejected) << error.message;
    EXPECT_TRUE(mentions(error, certificates().otherClientCertFile)) << error.message;
}

TEST_F(TlsIntegrationTest, SwappedOrMismatchedCertAndKeyAreRefusedBeforeDialling) {
    ClientOptions swapped = suiteOptions();
    std::swap(swapped.certFile, swapped.keyFile);
    const Error swappedError = statusError(swapped);
    EXPECT_EQ(swappedError.code, ErrorCode::TlsFilesInvalid) << swappedError.message;
    EXPECT_TRUE(mentions(swappedError, "swapped")) << swappedError.message;

    ClientOptions mismatched = suiteOptions();
    mismatched.keyFile = certificates().otherClientKeyFile;
    const Error mismatchedError = statusError(mismatched);
    EXPECT_EQ(mismatchedError.code, ErrorCode::TlsFilesInvalid) << mismatchedError.message;
    EXPECT_TRUE(mentions(mismatchedError, "is not the private key")) << mismatchedError.message;

    ClientOptions missing = suiteOptions();
    missing.caFile = certificates().directory() + "/no-such-ca.pem";
    const Error missingError = statusError(missing);
    EXPECT_EQ(missingError.code, ErrorCode::TlsFilesInvalid) << missingError.message;
    EXPECT_TRUE(mentions(missingError, "cannot read the --cacert file")) << missingError.message;
}

TEST_F(TlsIntegrationTest, PlainHttpAgainstTlsIsAWrongScheme) {
    ClientOptions options;
    options.endpoints = {"http://" + hostPort()};
    const Error error = statusError(options);
    EXPECT_EQ(error.code, ErrorCode::SchemeMismatch) << error.message;
    EXPECT_TRUE(mentions(error, "etcd serves TLS")) << error.message;
}

TEST_F(TlsIntegrationTest, HttpsAgainstPlainTextIsAWrongScheme) {
    LocalCluster plain(1);
    ASSERT_TRUE(plain.start().ok());
    ClientOptions options = suiteOptions();
    options.endpoints = {"https://" + plain.endpoint(0)};
    const Error error = statusError(options);
    EXPECT_EQ(error.code, ErrorCode::SchemeMismatch) << error.message;
    EXPECT_TRUE(mentions(error, "etcd serves plain text")) << error.message;
}

TEST_F(TlsIntegrationTest, AWatchWhoseFirstMemberFailsTlsRunsOnTheNext) {
    LocalCluster plain(1);
    ASSERT_TRUE(plain.start().ok());
    ClientOptions options = suiteOptions();
    options.endpoints = {"https://" + plain.endpoint(0), cluster().endpoint(0)};
    auto watching = std::move(Client::create(options)).value();
    WatchLog log;
    pb::WatchCreateRequest request;
    request.set_key(prefix() + "k");
    auto watch = watching->watch(request, log.callbacks());
    ASSERT_TRUE(log.waitFor([](WatchLog& l) { return l.created || l.end; }));
    pb::PutRequest put;
    put.set_key(prefix() + "k");
    put.set_value("v");
    ASSERT_TRUE(call(*client, &Client::put, put));
    ASSERT_TRUE(log.waitFor([](WatchLog& l) { return !l.events.empty() || l.end; }));
    EXPECT_FALSE(log.end) << log.end->message;
    EXPECT_EQ(log.values(), std::vector<std::string>{"v"});
}

TEST_F(TlsIntegrationTest, AHostNotInTheCertificateIsNamed) {
    LocalClusterTls misnamed = certificates().clusterTls();
    misnamed.serverCertFile = certificates().misnamedServerCertFile;
    misnamed.serverKeyFile = certificates().misnamedServerKeyFile;
    LocalCluster elsewhere(1, "etcd", misnamed);
    // Not start(): its readiness check would fail the same way; spawn, then ask.
    ASSERT_TRUE(elsewhere.spawn().ok());
    Error error;
    ASSERT_TRUE(eventually(
        [&] {
            error = statusError(elsewhere.clientOptions());
            return error.code != ErrorCode::Unavailable;
        },
        std::chrono::seconds(20)))
        << error.message;
    EXPECT_EQ(error.code, ErrorCode::TlsHostMismatch) << error.message;
    EXPECT_TRUE(mentions(error, "DNS:elsewhere.invalid, not 127.0.0.1")) << error.message;
}

TEST_F(TlsIntegrationTest, RefusedAndUnresolvableEndpointsSayWhichTheyAre) {
    LocalCluster stopped(1);
    ASSERT_TRUE(stopped.start().ok());
    ClientOptions refused;
    refused.endpoints = stopped.endpoints();
    stopped.stop();
    const Error refusedError = statusError(refused);
    EXPECT_EQ(refusedError.code, ErrorCode::Unavailable) << refusedError.message;
    EXPECT_TRUE(mentions(refusedError, "connection refused")) << refusedError.message;
    EXPECT_TRUE(mentions(refusedError, "check that etcd is running")) << refusedError.message;

    ClientOptions unresolvable;
    unresolvable.endpoints = {"no-such-host.invalid:2379"};
    const Error dnsError = statusError(unresolvable);
    EXPECT_EQ(dnsError.code, ErrorCode::HostNotFound) << dnsError.message;
    EXPECT_TRUE(isUsageError(dnsError.code));
    EXPECT_FALSE(mentions(dnsError, "etcd is running")) << dnsError.message;
}
