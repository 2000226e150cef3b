#include "etcdclient/blocking.h"
#include "etcdclient/key_range.h"
#include "support/etcd_fixture.h"

#include <atomic>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace etcd;
using lockscope::test::EtcdTest;

namespace {

class ShutdownIntegrationTest : public EtcdTest {};

// Destroying clients with calls, watches and keepalives in flight must cancel and drain them:
// no crash, no hang, no callback after destruction (run under ASan in CI).
TEST_F(ShutdownIntegrationTest, HundredClientsWithStreamsInFlightAreDestroyedCleanly) {
    pb::LeaseGrantRequest grant;
    grant.set_ttl(30);
    auto lease = call(*client, &Client::leaseGrant, grant);
    ASSERT_TRUE(lease);

    std::atomic<int> created{0};
    std::atomic<int> endedCancelled{0};
    struct Held {
        std::unique_ptr<Client> client;
        WatchHandle watch;
        KeepAliveHandle keepAlive;
    };
    std::vector<Held> clients;
    for (int i = 0; i < 100; ++i) {
        Held h;
        h.client = makeClient();
        ASSERT_TRUE(h.client);
        pb::WatchCreateRequest w;
        w.set_key(prefix());
        w.set_range_end(prefixRangeEnd(prefix()));
        h.watch = h.client->watch(w, {[&](const pb::WatchResponse& r) {
                                          if (r.created())
                                              ++created;
                                      },
                                      [&](const Error& e) {
                                          if (e.code == ErrorCode::Cancelled)
                                              ++endedCancelled;
                                      }});
        h.keepAlive = h.client->keepAlive(lease->id(), 30, {});
        // A call still in flight when the client goes.
        pb::RangeRequest r;
        r.set_key(prefix());
        h.client->range(r, [](Result<pb::RangeResponse>) {});
        clients.push_back(std::move(h));
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (created < 50 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_GE(created.load(), 50) << "most watches should be established before the teardown";

    const auto start = std::chrono::steady_clock::now();
    for (auto& h : clients)
        h.client.reset(); // handles outlive their client: their cancel must be harmless
    clients.clear();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_EQ(endedCancelled.load(), created.load())
        << "every established watch ends once, with Cancelled";

    // The server is unharmed and still answers.
    auto status = call(*client, &Client::status, pb::StatusRequest{});
    EXPECT_TRUE(status) << status.error().message;
}

TEST_F(ShutdownIntegrationTest, PendingCallbacksGetCancelledAndBlockingCallersReturn) {
    // A loopback listener that never speaks: the TCP handshake completes, HTTP/2 never does,
    // so the call waits for its 30 s deadline unless shutdown cancels it.
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    ASSERT_EQ(::listen(listener, 16), 0);
    ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    ClientOptions options;
    options.endpoints = {"127.0.0.1:" + std::to_string(ntohs(addr.sin_port))};
    options.dialTimeout = std::chrono::seconds(30);
    options.commandTimeout = std::chrono::seconds(30);
    auto stuck = makeClient(options);
    std::promise<ErrorCode> code;
    stuck->range(pb::RangeRequest{}, [&](Result<pb::RangeResponse> r) {
        code.set_value(r ? ErrorCode::Ok : r.error().code);
    });
    const auto start = std::chrono::steady_clock::now();
    stuck.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    auto f = code.get_future();
    ASSERT_EQ(f.wait_for(std::chrono::seconds(1)), std::future_status::ready);
    EXPECT_EQ(f.get(), ErrorCode::Cancelled);
    ::close(listener);
}

} // namespace
