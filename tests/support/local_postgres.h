#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lockscope::test {

// A PostgreSQL server of a test's own (Debian's postgresql: initdb, pg_ctl, postgres, of the
// newest version installed), in a temporary folder, listening on a free loopback port, its unix
// socket in that folder. Run as nobody when we are root, which PostgreSQL refuses to run as.
// TCP connections need the superuser's password (scram-sha-256); the socket trusts anyone. A
// server whose test was killed is stopped and removed by the next start().
//     QVERIFY2(postgres.start(), postgres.error().c_str());
//     QVERIFY2(postgres.createDatabase("history"), postgres.error().c_str());
class LocalPostgres {
public:
    static constexpr const char* user = "lockscope";
    static constexpr const char* password = "pg secret 7";

    LocalPostgres() = default;
    ~LocalPostgres(); // stop()
    LocalPostgres(const LocalPostgres&) = delete;
    LocalPostgres& operator=(const LocalPostgres&) = delete;

    // initdb, then pg_ctl start -w; false with what failed in error().
    bool start();
    // Stops the server at once and removes its folder.
    void stop();
    const std::string& error() const { return error_; }

    // A new empty database `name`; false with the reason in error().
    bool createDatabase(const std::string& name);
    // postgresql://lockscope[:password]@127.0.0.1:port/database
    std::string url(const std::string& database, bool withPassword = true) const;
    int port() const { return port_; }

private:
    // Runs a PostgreSQL program (from its bin folder) as the server's user; false with its
    // output in error().
    bool run(const std::string& program, std::vector<std::string> arguments);
    // Stops and removes the servers of tests that ended without stop() (killed), found by the
    // owner's pid each folder holds.
    void removeOrphans(const std::filesystem::path& base);

    std::filesystem::path bin_, dir_;
    int port_ = 0;
    bool running_ = false;
    std::string error_;
};

} // namespace lockscope::test
