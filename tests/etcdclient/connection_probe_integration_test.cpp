// The connection probe explains a vague connection failure; its name lookup has no timeout.
// Run by tests/support/with_silent_resolver.sh, where a lookup of a name not in /etc/hosts waits
// on a name server that never answers: the lease's keepalives must go on meanwhile.
#include "etcdclient/blocking.h"
#include "support/etcd_fixture.h"

#include <arpa/inet.h>
#include <atomic>
#include <mutex>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace etcd;
using lockscope::test::EtcdTest;
using namespace std::chrono_literals;

namespace {

// A UDP socket bound and never read: questions to it go unanswered (not refused).
class SilentNameServer {
public:
    SilentNameServer() {
        fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(53);
        address.sin_addr.s_addr = htonl(0x7f000002); // 127.0.0.2
        bound_ =
            fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    }
    ~SilentNameServer() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    bool bound() const { return bound_; }

private:
    int fd_ = -1;
    bool bound_ = false;
};

class ConnectionProbeIntegrationTest : public EtcdTest {
protected:
    static Result<pb::StatusResponse> statusOfSlowhost(Client& client) {
        return waitFor<Result<pb::StatusResponse>>(
            [&](auto done) { client.statusOf(1, pb::StatusRequest{}, std::move(done)); });
    }
};

TEST_F(ConnectionProbeIntegrationTest, AProbeWaitingOnANameServerHoldsUpNoKeepalive) {
    ASSERT_NE(std::getenv("LOCKSCOPE_SILENT_RESOLVER"), nullptr)
        << "run through tests/support/with_silent_resolver.sh";
    SilentNameServer nameServer;
    ASSERT_TRUE(nameServer.bound()) << "127.0.0.2:53 is taken";

    // The second member is the same etcd named slowhost and spoken to with TLS, which it does
    // not speak: gRPC says only "failed to connect to all addresses", the vague failure the
    // probe is there to explain.
    ClientOptions options;
    const std::string plain = cluster().endpoint(0);
    options.endpoints = {plain, "https://slowhost:" + plain.substr(plain.rfind(':') + 1)};
    auto created = Client::create(options);
    ASSERT_TRUE(created) << created.error().message;
    Client& twoMembers = **created;

    // gRPC resolves slowhost from /etc/hosts (its native resolver: GRPC_DNS_RESOLVER, set by
    // the test's environment; c-ares would ask the silent name server) and keeps the address.
    // The probe's own lookup finds it there too, this once, and names the cause.
    auto first = statusOfSlowhost(twoMembers);
    ASSERT_FALSE(first);
    EXPECT_EQ(first.error().code, ErrorCode::SchemeMismatch) << first.error().message;
    // From now on a lookup of slowhost asks the silent name server. A probe's finding stands
    // for 5 s: after that, the next vague failure probes again.
    ASSERT_EQ(::umount2("/etc/hosts", MNT_DETACH), 0);
    std::this_thread::sleep_for(5500ms);

    pb::LeaseGrantRequest grant;
    grant.set_ttl(3);
    auto lease = call(twoMembers, &Client::leaseGrant, grant);
    ASSERT_TRUE(lease) << lease.error().message;
    std::mutex mutex;
    std::vector<std::chrono::steady_clock::time_point> answers;
    std::atomic<bool> ended = false;
    KeepAliveHandle keepAlive =
        twoMembers.keepAlive(lease->id(), 3,
                             {[&](const KeepAliveAnswer&) {
                                  std::lock_guard lock(mutex);
                                  answers.push_back(std::chrono::steady_clock::now());
                              },
                              [&](const Error&) { ended = true; }});

    const auto probedFrom = std::chrono::steady_clock::now();
    auto second = statusOfSlowhost(twoMembers);
    const auto probedUntil = std::chrono::steady_clock::now();
    ASSERT_FALSE(second);
    // The failure waited for the probe, which waited on the name server: the case in point.
    ASSERT_GE(probedUntil - probedFrom, 4s) << second.error().message;

    std::lock_guard lock(mutex);
    auto last = probedFrom;
    std::chrono::steady_clock::duration longestGap{};
    for (const auto answer : answers) {
        if (answer < probedFrom || answer > probedUntil)
            continue;
        longestGap = std::max(longestGap, answer - last);
        last = answer;
    }
    longestGap = std::max(longestGap, probedUntil - last);
    // Keepalives go every TTL/6 (0.5 s): a queue thread held by the lookup would leave a gap
    // of the lookup's whole length, and the lease would expire.
    EXPECT_LT(longestGap, 2s)
        << std::chrono::duration_cast<std::chrono::milliseconds>(longestGap).count()
        << " ms without a keepalive answer";
    EXPECT_FALSE(ended);
}

} // namespace
