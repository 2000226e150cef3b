#include "process/local_cluster.h"

#include "etcdclient/blocking.h"
#include "etcdclient/client.h"
#include "process/spawn.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace etcd {

namespace fs = std::filesystem;

namespace {

// Binds port 0 on loopback and keeps the socket open, so several free ports can be chosen
// without the kernel handing out the same one twice.
int reservePort(int& socketFd) {
    socketFd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof(addr);
    if (socketFd < 0 || ::bind(socketFd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        ::getsockname(socketFd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        return 0;
    return ntohs(addr.sin_port);
}

constexpr const char* ownerFile = "owner.pid";

// Data directories whose owner died without cleaning up (SIGKILL, a crash): their etcd died
// with the owner (PR_SET_PDEATHSIG), so nothing uses them any more.
void removeOrphans(const fs::path& base) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(base, error)) {
        if (entry.path().filename().string().rfind("lockscope-etcd-", 0) != 0)
            continue;
        std::ifstream owner(entry.path() / ownerFile);
        pid_t pid = 0;
        if (owner >> pid && pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH)
            fs::remove_all(entry.path(), error);
    }
}

std::string makeRoot() {
    // Shared memory when there is some: fsync is free there, which keeps demos and tests fast.
    fs::path base = fs::exists("/dev/shm") && ::access("/dev/shm", W_OK) == 0
                        ? fs::path("/dev/shm")
                        : fs::temp_directory_path();
    removeOrphans(base);
    std::string pattern = (base / "lockscope-etcd-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        return {};
    std::ofstream(fs::path(pattern) / ownerFile) << ::getpid() << "\n";
    return pattern;
}

} // namespace

LocalCluster::LocalCluster(int members, std::string etcdBinary, LocalClusterTls tls)
    : etcdBinary_(std::move(etcdBinary))
    , tls_(std::move(tls))
    , members_(static_cast<std::size_t>(members)) {
    for (int i = 0; i < members; ++i)
        members_[i].name = "member" + std::to_string(i);
}

LocalCluster::~LocalCluster() {
    stop();
    if (!root_.empty()) {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }
}

std::vector<std::string> LocalCluster::endpoints() const {
    std::vector<std::string> out;
    for (int i = 0; i < size(); ++i)
        out.push_back(endpoint(i));
    return out;
}

std::string LocalCluster::endpoint(int member) const {
    return (tls_.enabled() ? "https://127.0.0.1:" : "127.0.0.1:") +
           std::to_string(members_[member].clientPort);
}

std::string LocalCluster::clientUrl(int member) const {
    return (tls_.enabled() ? "https://127.0.0.1:" : "http://127.0.0.1:") +
           std::to_string(members_[member].clientPort);
}

std::string LocalCluster::peerUrl(int member) const {
    return (tls_.enabled() ? "https://127.0.0.1:" : "http://127.0.0.1:") +
           std::to_string(members_[member].peerPort);
}

ClientOptions LocalCluster::clientOptions() const {
    ClientOptions options;
    options.endpoints = endpoints();
    options.caFile = tls_.caFile;
    options.certFile = tls_.clientCertFile;
    options.keyFile = tls_.clientKeyFile;
    return options;
}

std::string LocalCluster::endpointList() const {
    std::string out;
    for (const auto& e : endpoints())
        out += (out.empty() ? "" : ",") + e;
    return out;
}

std::string LocalCluster::logFile(int member) const {
    return root_ + "/" + members_[member].name + ".log";
}

bool LocalCluster::running(int member) const {
    return members_[member].pid > 0 && ::kill(members_[member].pid, 0) == 0;
}

Error LocalCluster::spawn() {
    if (root_.empty())
        root_ = makeRoot();
    if (root_.empty())
        return Error(ErrorCode::Internal, std::string("cannot create a temporary directory for "
                                                      "etcd: ") +
                                              std::strerror(errno));
    std::vector<int> sockets;
    for (auto& m : members_) {
        int a = -1, b = -1;
        m.clientPort = reservePort(a);
        m.peerPort = reservePort(b);
        sockets.push_back(a);
        sockets.push_back(b);
        m.started = false;
    }
    for (int fd : sockets)
        if (fd >= 0)
            ::close(fd);
    for (int i = 0; i < size(); ++i) {
        if (members_[i].clientPort == 0 || members_[i].peerPort == 0)
            return Error(ErrorCode::Internal, "no free loopback port for etcd");
        if (Error e = launch(i); !e.ok())
            return e;
    }
    return {};
}

Error LocalCluster::launch(int member) {
    MemberProcess& m = members_[member];
    std::string initialCluster;
    for (int i = 0; i < size(); ++i)
        initialCluster += (initialCluster.empty() ? "" : ",") + members_[i].name + "=" + peerUrl(i);
    const std::string dataDir = root_ + "/" + m.name + ".etcd";
    std::vector<std::string> args = {
        etcdBinary_,
        "--name=" + m.name,
        "--data-dir=" + dataDir,
        "--listen-client-urls=" + clientUrl(member),
        "--advertise-client-urls=" + clientUrl(member),
        "--listen-peer-urls=" + peerUrl(member),
        "--initial-advertise-peer-urls=" + peerUrl(member),
        "--initial-cluster=" + initialCluster,
        "--initial-cluster-state=" + std::string(m.started ? "existing" : "new"),
        "--initial-cluster-token=lockscope-" + fs::path(root_).filename().string(),
        "--logger=zap",
        "--log-outputs=stderr",
        "--log-level=warn",
    };
    if (tls_.enabled()) {
        for (const char* side : {"", "peer-"}) {
            args.push_back("--" + std::string(side) + "cert-file=" + tls_.serverCertFile);
            args.push_back("--" + std::string(side) + "key-file=" + tls_.serverKeyFile);
            args.push_back("--" + std::string(side) + "trusted-ca-file=" + tls_.caFile);
            args.push_back("--" + std::string(side) + "client-cert-auth");
        }
    }
    args.insert(args.end(), extraArguments_.begin(), extraArguments_.end());
    const std::string log = logFile(member);
    const int logFd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const lockscope::process::Spawned etcd = lockscope::process::spawn({.argv = std::move(args),
                                                                        .outputFd = logFd,
                                                                        .ownProcessGroup = true,
                                                                        .dieWithParent = true});
    if (logFd >= 0)
        ::close(logFd);
    if (!etcd.ok())
        return Error(ErrorCode::Internal,
                     "cannot start etcd: " + etcd.error + ". Is Debian's etcd-server installed?");
    m.pid = etcd.pid;
    m.started = true;
    return {};
}

Error LocalCluster::waitReady(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (int i = 0; i < size(); ++i) {
        ClientOptions options = clientOptions();
        options.endpoints = {endpoint(i)};
        options.dialTimeout = std::chrono::milliseconds(500);
        options.commandTimeout = std::chrono::milliseconds(1000);
        auto client = Client::create(options);
        if (!client)
            return client.error();
        while (true) {
            if (lockscope::process::waitForExit(members_[i].pid, std::chrono::milliseconds(0))) {
                members_[i].pid = -1;
                return Error(ErrorCode::Unavailable, "etcd (" + members_[i].name +
                                                         ") exited at start; see " + logFile(i) +
                                                         ". Is Debian's etcd-server installed?");
            }
            auto reply = call(**client, &Client::status, pb::StatusRequest{});
            if (reply && reply->leader() != 0)
                break;
            if (std::chrono::steady_clock::now() > deadline)
                return Error(ErrorCode::DeadlineExceeded,
                             "etcd (" + members_[i].name + ") did not become ready in time; see " +
                                 logFile(i));
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    return {};
}

Error LocalCluster::start(std::chrono::milliseconds timeout) {
    Error error;
    for (int attempt = 0; attempt < 3; ++attempt) {
        error = spawn();
        if (error.ok())
            error = waitReady(timeout);
        if (error.ok())
            return error;
        stop(); // a port taken between choosing and binding: try again with new ones
        std::error_code ignored;
        for (const auto& entry : fs::directory_iterator(root_, ignored))
            if (entry.path().extension() == ".etcd")
                fs::remove_all(entry.path(), ignored);
    }
    return error;
}

void LocalCluster::signalAndReap(int member, int signal, std::chrono::milliseconds grace) {
    MemberProcess& m = members_[member];
    if (m.pid <= 0)
        return;
    lockscope::process::stopProcess(m.pid, signal, grace);
    m.pid = -1;
}

void LocalCluster::stopMember(int member) {
    signalAndReap(member, SIGTERM, std::chrono::seconds(5));
}

void LocalCluster::killMember(int member) {
    signalAndReap(member, SIGKILL, std::chrono::seconds(5));
}

Error LocalCluster::restartMember(int member) {
    stopMember(member);
    return launch(member);
}

void LocalCluster::stop() {
    for (int i = 0; i < size(); ++i)
        stopMember(i);
}

} // namespace etcd
