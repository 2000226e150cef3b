#include "support/test_certificates.h"

#include "process/child_process.h"

#include <filesystem>
#include <fstream>

namespace lockscope::test {

namespace fs = std::filesystem;

namespace {
// Elliptic-curve keys: made in milliseconds, where RSA keys would slow every suite's start.
const std::vector<std::string> newKey = {"-newkey", "ec", "-pkeyopt",
                                         "ec_paramgen_curve:prime256v1", "-nodes"};
constexpr const char* serverExtensions =
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n";
constexpr const char* clientExtensions = "extendedKeyUsage=clientAuth\n";
constexpr const char* misnamedExtensions =
    "subjectAltName=DNS:elsewhere.invalid\nextendedKeyUsage=serverAuth,clientAuth\n";
} // namespace

TestCertificates::TestCertificates() {
    std::string pattern = (fs::temp_directory_path() / "lockscope-pki-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        error_ = "cannot create a temporary directory for the certificates";
        return;
    }
    dir_ = pattern;
    const auto path = [&](const std::string& name) { return dir_ + "/" + name; };
    caFile = path("ca.pem");
    serverCertFile = path("server.pem");
    serverKeyFile = path("server.key");
    clientCertFile = path("client.pem");
    clientKeyFile = path("client.key");
    otherCaFile = path("other-ca.pem");
    otherClientCertFile = path("other-client.pem");
    otherClientKeyFile = path("other-client.key");
    misnamedServerCertFile = path("misnamed-server.pem");
    misnamedServerKeyFile = path("misnamed-server.key");
    (void)(makeCa("ca") && makeCa("other-ca") &&
           makeSigned("server", "ca", "/CN=etcd server", serverExtensions) &&
           makeSigned("client", "ca", "/CN=root", clientExtensions) &&
           makeSigned("other-client", "other-ca", "/CN=root", clientExtensions) &&
           makeSigned("misnamed-server", "ca", "/CN=elsewhere", misnamedExtensions));
}

TestCertificates::~TestCertificates() {
    if (!dir_.empty()) {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }
}

etcd::LocalClusterTls TestCertificates::clusterTls() const {
    return {caFile, serverCertFile, serverKeyFile, clientCertFile, clientKeyFile};
}

bool TestCertificates::openssl(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"openssl"};
    argv.insert(argv.end(), args.begin(), args.end());
    process::ChildProcess child(argv);
    std::string output;
    while (auto line = child.readLine(std::chrono::seconds(20)))
        output += *line + "\n";
    const auto exitCode = child.wait(std::chrono::seconds(5));
    if (exitCode == 0)
        return true;
    error_ = "openssl " + args.front() + " failed (is Debian's openssl installed?): " + output;
    return false;
}

bool TestCertificates::makeCa(const std::string& name) {
    std::vector<std::string> args = {"req",     "-x509",
                                     "-days",   "2",
                                     "-subj",   "/CN=LockScope test " + name,
                                     "-keyout", dir_ + "/" + name + ".key",
                                     "-out",    dir_ + "/" + name + ".pem"};
    args.insert(args.end(), newKey.begin(), newKey.end());
    return openssl(args);
}

bool TestCertificates::makeSigned(const std::string& name, const std::string& ca,
                                  const std::string& subject, const std::string& extensions) {
    const std::string base = dir_ + "/" + name;
    std::ofstream(base + ".ext") << extensions;
    std::vector<std::string> request = {"req",         "-subj", subject,      "-keyout",
                                        base + ".key", "-out",  base + ".csr"};
    request.insert(request.end(), newKey.begin(), newKey.end());
    return openssl(request) &&
           openssl({"x509", "-req", "-days", "2", "-in", base + ".csr", "-CA",
                    dir_ + "/" + ca + ".pem", "-CAkey", dir_ + "/" + ca + ".key", "-CAcreateserial",
                    "-extfile", base + ".ext", "-out", base + ".pem"});
}

} // namespace lockscope::test
