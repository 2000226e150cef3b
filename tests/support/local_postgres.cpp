#include "support/local_postgres.h"

#include "process/child_process.h"

#include <cerrno>
#include <csignal>
#include <fstream>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lockscope::test {

namespace fs = std::filesystem;

namespace {

// PostgreSQL refuses to run as root: its programs run as this user then.
constexpr const char* unprivilegedUser = "nobody";

// The bin folder of the newest PostgreSQL installed (/usr/lib/postgresql/<major>/bin), or empty.
fs::path newestBin() {
    fs::path newest;
    int newestMajor = 0;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", error)) {
        const std::string name = entry.path().filename().string();
        const int major = std::atoi(name.c_str());
        if (major > newestMajor && fs::exists(entry.path() / "bin" / "initdb")) {
            newestMajor = major;
            newest = entry.path() / "bin";
        }
    }
    return newest;
}

// A loopback port free now: PostgreSQL is given it a moment later, and start() tries again if
// another process took it meanwhile.
int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    const bool bound = fd >= 0 &&
                       ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
                       ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
    if (fd >= 0)
        ::close(fd);
    return bound ? ntohs(address.sin_port) : 0;
}

constexpr const char* folderPrefix = "lockscope-postgres-";
constexpr const char* ownerFile = "owner.pid"; // the test process that started it

} // namespace

LocalPostgres::~LocalPostgres() {
    stop();
}

bool LocalPostgres::run(const std::string& program, std::vector<std::string> arguments) {
    std::vector<std::string> argv;
    if (::geteuid() == 0)
        argv = {"setpriv", "--reuid=" + std::string(unprivilegedUser), "--regid=nogroup",
                "--clear-groups"};
    argv.push_back((bin_ / program).string());
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    process::ChildProcess child(argv, {"LC_ALL=C"});
    if (!child.started()) {
        error_ = "could not run " + program;
        return false;
    }
    std::string output;
    while (const auto line = child.readLine(std::chrono::seconds(120)))
        output += *line + "\n";
    const auto code = child.wait(std::chrono::seconds(10));
    if (code == 0)
        return true;
    error_ = program + " failed (" + (code ? "exit code " + std::to_string(*code) : "no exit") +
             "): " + output;
    return false;
}

bool LocalPostgres::start() {
    stop();
    bin_ = newestBin();
    if (bin_.empty()) {
        error_ = "no PostgreSQL server under /usr/lib/postgresql (install Debian's postgresql)";
        return false;
    }
    // Shared memory when there is some, as for etcd: fsync is free there.
    const fs::path base =
        ::access("/dev/shm", W_OK) == 0 ? fs::path("/dev/shm") : fs::temp_directory_path();
    removeOrphans(base);
    std::string pattern = (base / (std::string(folderPrefix) + "XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) {
        error_ = "could not make a folder under " + base.string();
        return false;
    }
    dir_ = pattern;
    std::ofstream(dir_ / ownerFile) << ::getpid() << "\n";
    if (::geteuid() == 0) {
        const passwd* owner = ::getpwnam(unprivilegedUser);
        if (!owner || ::chown(dir_.c_str(), owner->pw_uid, owner->pw_gid) != 0) {
            error_ = std::string("could not give ") + dir_.string() + " to " + unprivilegedUser;
            return false;
        }
    }
    const fs::path passwordFile = dir_ / "password";
    std::ofstream(passwordFile) << password << "\n";
    if (!run("initdb", {"-D", (dir_ / "data").string(), "-U", user,
                        "--pwfile=" + passwordFile.string(), "--auth-local=trust",
                        "--auth-host=scram-sha-256", "--no-locale", "-E", "UTF8", "--no-sync"}))
        return false;
    // A port taken between choosing it and the server's bind: another one.
    for (int attempt = 0; attempt < 3 && !running_; ++attempt) {
        port_ = freeLoopbackPort();
        running_ = run("pg_ctl", {"-D", (dir_ / "data").string(), "-l", (dir_ / "log").string(),
                                  "-w", "-t", "60", "-o",
                                  "-p " + std::to_string(port_) + " -k " + dir_.string() +
                                      " -c listen_addresses=127.0.0.1 -c fsync=off",
                                  "start"});
    }
    if (running_)
        error_.clear();
    return running_;
}

void LocalPostgres::stop() {
    if (running_)
        run("pg_ctl", {"-D", (dir_ / "data").string(), "-m", "immediate", "-w", "stop"});
    running_ = false;
    if (!dir_.empty()) {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
        dir_.clear();
    }
}

void LocalPostgres::removeOrphans(const fs::path& base) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(base, error)) {
        if (entry.path().filename().string().rfind(folderPrefix, 0) != 0)
            continue;
        std::ifstream owner(entry.path() / ownerFile);
        pid_t pid = 0;
        if (!(owner >> pid) || pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        // Its server outlived it: the parent-death signal does not survive setpriv's change
        // of user.
        run("pg_ctl", {"-D", (entry.path() / "data").string(), "-m", "immediate", "-w", "stop"});
        fs::remove_all(entry.path(), error);
    }
    error_.clear();
}

bool LocalPostgres::createDatabase(const std::string& name) {
    return run("createdb", {"-h", dir_.string(), "-p", std::to_string(port_), "-U", user, name});
}

std::string LocalPostgres::url(const std::string& database, bool withPassword) const {
    // The password's space, written as a URL says it.
    std::string escaped;
    for (const char c : std::string(password))
        escaped += c == ' ' ? std::string("%20") : std::string(1, c);
    return std::string("postgresql://") + user + (withPassword ? ":" + escaped : "") +
           "@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

} // namespace lockscope::test
