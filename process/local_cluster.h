#pragma once

#include "etcdclient/client_options.h"
#include "etcdclient/error.h"

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace etcd {

// The PEM files of a TLS cluster: members serve clients and each other over https and accept
// only certificates signed by `caFile` (--client-cert-auth, --peer-client-cert-auth).
struct LocalClusterTls {
    std::string caFile;                        // --trusted-ca-file, and the clients' --cacert
    std::string serverCertFile, serverKeyFile; // --cert-file/--key-file, for peers as well
    std::string clientCertFile, clientKeyFile; // what clientOptions() and waitReady() present
    bool enabled() const { return !serverCertFile.empty(); }
};

// Real etcd servers (Debian's `etcd`) on free loopback ports with a temporary data directory:
// the sandbox LockScope opens when no cluster is given, and the fixture every test runs
// against. Members are started with PR_SET_PDEATHSIG, so they die with the thread that
// started them even when LockScope is killed; the destructor stops them and removes the data.
class LocalCluster {
public:
    explicit LocalCluster(int members = 1, std::string etcdBinary = "etcd",
                          LocalClusterTls tls = {});
    ~LocalCluster();
    LocalCluster(const LocalCluster&) = delete;
    LocalCluster& operator=(const LocalCluster&) = delete;

    // More etcd flags for every member started from now on (e.g. "--auth-token-ttl=5").
    void setExtraArguments(std::vector<std::string> arguments) {
        extraArguments_ = std::move(arguments);
    }

    // Spawns every member and returns at once; no network wait.
    Error spawn();
    // Waits until every member answers and a leader is elected.
    Error waitReady(std::chrono::milliseconds timeout = std::chrono::seconds(20));
    // spawn() then waitReady(), retrying with new ports if a port was taken meanwhile.
    Error start(std::chrono::milliseconds timeout = std::chrono::seconds(20));
    void stop();

    int size() const { return static_cast<int>(members_.size()); }
    // "127.0.0.1:port" (with TLS "https://127.0.0.1:port"), one per member
    std::vector<std::string> endpoints() const;
    std::string endpoint(int member) const;
    std::string endpointList() const; // comma-separated, as etcdctl's --endpoints takes it
    // Every member's endpoint and, with TLS, the CA and client certificate to connect with.
    ClientOptions clientOptions() const;
    const LocalClusterTls& tls() const { return tls_; }
    std::string dataRoot() const { return root_; }
    std::string logFile(int member) const;
    pid_t pid(int member) const { return members_[member].pid; }
    bool running(int member) const;

    void stopMember(int member); // SIGTERM, then SIGKILL after 5 s
    void killMember(int member); // SIGKILL at once
    Error restartMember(int member);

private:
    struct MemberProcess {
        std::string name;
        int clientPort = 0;
        int peerPort = 0;
        pid_t pid = -1;
        bool started = false;
    };
    Error launch(int member);
    void signalAndReap(int member, int signal, std::chrono::milliseconds grace);

    std::string clientUrl(int member) const;
    std::string peerUrl(int member) const;

    std::string etcdBinary_;
    LocalClusterTls tls_;
    std::vector<std::string> extraArguments_;
    std::string root_;
    std::vector<MemberProcess> members_;
};

} // namespace etcd
