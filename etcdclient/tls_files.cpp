#include "etcdclient/tls_files.h"

#include <fstream>
#include <memory>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sstream>

namespace etcd {

namespace {

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
using Certificate = std::unique_ptr<X509, decltype(&X509_free)>;
using PrivateKey = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

Bio memoryBio(const std::string& pem) {
    return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
}

Certificate firstCertificate(const std::string& pem) {
    return Certificate(PEM_read_bio_X509(memoryBio(pem).get(), nullptr, nullptr, nullptr),
                       X509_free);
}

// No passphrase: OpenSSL's default callback would prompt on the terminal.
int noPassphrase(char*, int, int, void*) {
    return 0;
}

PrivateKey privateKey(const std::string& pem) {
    return PrivateKey(PEM_read_bio_PrivateKey(memoryBio(pem).get(), nullptr, noPassphrase, nullptr),
                      EVP_PKEY_free);
}

Error invalid(const std::string& what) {
    return Error(ErrorCode::TlsFilesInvalid, describeError(ErrorCode::TlsFilesInvalid, "", what));
}

bool readFile(const std::string& path, const char* flag, std::string& out, Error& error) {
    if (path.empty())
        return true;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = invalid(std::string("cannot read the ") + flag + " file '" + path + "'");
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    out = text.str();
    return true;
}

Result<TlsFiles> checkTlsFiles(const ClientOptions& options) {
    TlsFiles files;
    Error error;
    if (!readFile(options.caFile, "--cacert", files.caPem, error) ||
        !readFile(options.certFile, "--cert", files.certPem, error) ||
        !readFile(options.keyFile, "--key", files.keyPem, error))
        return error;
    if (!options.caFile.empty() && !firstCertificate(files.caPem))
        return invalid("the --cacert file '" + options.caFile + "' holds no PEM certificate");
    if (options.certFile.empty() != options.keyFile.empty())
        return invalid("a client certificate needs its key and a key needs its certificate: "
                       "give both --cert and --key");
    if (options.certFile.empty())
        return files;
    const Certificate certificate = firstCertificate(files.certPem);
    const PrivateKey key = privateKey(files.keyPem);
    if (!certificate && !key && firstCertificate(files.keyPem) && privateKey(files.certPem))
        return invalid("--cert '" + options.certFile + "' holds a private key and --key '" +
                       options.keyFile + "' a certificate: --cert and --key are swapped");
    if (!certificate)
        return invalid("the --cert file '" + options.certFile + "' holds no PEM certificate");
    if (!key)
        return invalid("the --key file '" + options.keyFile +
                       "' holds no PEM private key (or one protected by a passphrase)");
    if (X509_check_private_key(certificate.get(), key.get()) != 1)
        return invalid("the --key file '" + options.keyFile +
                       "' is not the private key of the --cert certificate '" + options.certFile +
                       "'");
    return files;
}

} // namespace

Result<TlsFiles> readTlsFiles(const ClientOptions& options) {
    Result<TlsFiles> files = checkTlsFiles(options);
    ERR_clear_error(); // leave OpenSSL's per-thread error queue as we found it
    return files;
}

} // namespace etcd
