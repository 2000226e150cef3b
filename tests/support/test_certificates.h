#pragma once

#include "process/local_cluster.h"

#include <string>
#include <vector>

namespace lockscope::test {

// A throwaway PKI made with Debian's `openssl` in a temporary directory (removed on
// destruction): a CA with a server certificate (SAN IP:127.0.0.1, DNS:localhost) and a client
// certificate, plus what the failure cases need. Plain C++, for GoogleTest and QtTest alike.
class TestCertificates {
public:
    TestCertificates();
    ~TestCertificates();
    TestCertificates(const TestCertificates&) = delete;
    TestCertificates& operator=(const TestCertificates&) = delete;

    // Empty when every file was made; otherwise what failed.
    const std::string& error() const { return error_; }
    const std::string& directory() const { return dir_; }

    // Everything a TLS LocalCluster needs: this CA's server and client certificates.
    etcd::LocalClusterTls clusterTls() const;

    std::string caFile;
    std::string serverCertFile, serverKeyFile;
    std::string clientCertFile, clientKeyFile; // CN=root
    // A second, unrelated CA and a client certificate it signed.
    std::string otherCaFile;
    std::string otherClientCertFile, otherClientKeyFile;
    // Signed by the first CA but naming only DNS:elsewhere.invalid.
    std::string misnamedServerCertFile, misnamedServerKeyFile;

private:
    bool openssl(const std::vector<std::string>& args);
    bool makeCa(const std::string& name);
    bool makeSigned(const std::string& name, const std::string& ca, const std::string& subject,
                    const std::string& extensions);

    std::string dir_;
    std::string error_;
};

} // namespace lockscope::test
