#include "etcdclient/connection_probe.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace etcd {

namespace {

using Context = std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)>;
using Connection = std::unique_ptr<SSL, decltype(&SSL_free)>;

// HTTP/2's connection preface and an empty SETTINGS frame: what gRPC sends first.
constexpr char http2Preface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\4\0\0\0\0\0";
constexpr std::size_t http2PrefaceSize = sizeof(http2Preface) - 1;
constexpr unsigned char settingsFrameType = 4;

class Socket {
public:
    ~Socket() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    int fd() const { return fd_; }

    // Connects to host:port within `timeout`; afterwards reads and writes time out likewise.
    bool connect(const std::string& host, const std::string& port,
                 std::chrono::milliseconds timeout) {
        addrinfo hints{};
        hints.ai_socktype = SOCK_STREAM;
        addrinfo* found = nullptr;
        if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0)
            return false;
        for (addrinfo* a = found; a && fd_ < 0; a = a->ai_next)
            attempt(*a, timeout);
        ::freeaddrinfo(found);
        return fd_ >= 0;
    }

private:
    void attempt(const addrinfo& address, std::chrono::milliseconds timeout) {
        const int fd = ::socket(address.ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0)
            return;
        bool connected = ::connect(fd, address.ai_addr, address.ai_addrlen) == 0;
        if (!connected && errno == EINPROGRESS) {
            pollfd wait{fd, POLLOUT, 0};
            int error = 0;
            socklen_t size = sizeof(error);
            connected = ::poll(&wait, 1, static_cast<int>(timeout.count())) == 1 &&
                        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0;
        }
        if (!connected) {
            ::close(fd);
            return;
        }
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        timeval limit{static_cast<time_t>(timeout.count() / 1000),
                      static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
        ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
        fd_ = fd;
    }

    int fd_ = -1;
};

bool isIpAddress(const std::string& host) {
    unsigned char buffer[sizeof(in6_addr)];
    return ::inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
           ::inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

// "DNS:localhost, IP:127.0.0.1": the names a certificate is valid for.
std::string subjectAltNames(X509* certificate) {
    std::string out;
    auto* names = static_cast<GENERAL_NAMES*>(
        X509_get_ext_d2i(certificate, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; names && i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
        std::string entry;
        if (name->type == GEN_DNS) {
            const auto* text = name->d.dNSName;
            entry = "DNS:" + std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(text)),
                                         static_cast<std::size_t>(ASN1_STRING_length(text)));
        } else if (name->type == GEN_IPADD) {
            const auto* bytes = name->d.iPAddress;
            char text[INET6_ADDRSTRLEN] = {};
            const int family = ASN1_STRING_length(bytes) == 4 ? AF_INET : AF_INET6;
            ::inet_ntop(family, ASN1_STRING_get0_data(bytes), text, sizeof(text));
            entry = std::string("IP:") + text;
        }
        if (!entry.empty())
            out += (out.empty() ? "" : ", ") + entry;
    }
    GENERAL_NAMES_free(names);
    return out.empty() ? "no subject alternative name" : out;
}

// "CN=LockScope test ca", as RFC 2253 writes a distinguished name.
std::string issuerName(X509* certificate) {
    std::unique_ptr<BIO, decltype(&BIO_free)> out(BIO_new(BIO_s_mem()), BIO_free);
    X509_NAME_print_ex(out.get(), X509_get_issuer_name(certificate), 0, XN_FLAG_RFC2253);
    char* text = nullptr;
    const long size = BIO_get_mem_data(out.get(), &text);
    return std::string(text, static_cast<std::size_t>(size));
}

// Splits "host:port" or "[v6]:port".
void splitTarget(const std::string& target, std::string& host, std::string& port) {
    const auto colon = target.rfind(':');
    host = target.substr(0, colon);
    port = target.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
}

// Whoever answers at `socket` speaks plain-text HTTP/2: it answers our preface with SETTINGS.
bool speaksPlainHttp2(const Socket& socket) {
    if (::send(socket.fd(), http2Preface, http2PrefaceSize, MSG_NOSIGNAL) !=
        static_cast<ssize_t>(http2PrefaceSize))
        return false;
    unsigned char header[9];
    std::size_t got = 0;
    while (got < sizeof(header)) {
        const ssize_t n = ::recv(socket.fd(), header + got, sizeof(header) - got, 0);
        if (n <= 0)
            return false;
        got += static_cast<std::size_t>(n);
    }
    return header[3] == settingsFrameType;
}

// Whoever answers at `socket` completes a TLS handshake (its certificate unchecked).
bool speaksTls(const Socket& socket) {
    Context context(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
    Connection ssl(SSL_new(context.get()), SSL_free);
    SSL_set_fd(ssl.get(), socket.fd());
    const bool handshook = SSL_connect(ssl.get()) == 1;
    return handshook || SSL_get0_peer_certificate(ssl.get()) != nullptr;
}

class TlsProbe {
public:
    TlsProbe(const Endpoint& endpoint, const ClientOptions& options,
             std::chrono::milliseconds timeout)
        : endpoint_(endpoint)
        , options_(options)
        , timeout_(timeout) {
        splitTarget(endpoint.target, host_, port_);
    }

    Error run() {
        Socket socket;
        if (!socket.connect(host_, port_, timeout_))
            return {}; // nothing to learn: gRPC's own error (refused, no answer) stands
        if (!endpoint_.tls)
            return speaksTls(socket) ? mismatch("etcd serves TLS at this address, not plain text")
                                     : Error();
        Context context(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
        // The files passed readTlsFiles() before the client was made.
        if (options_.caFile.empty())
            SSL_CTX_set_default_verify_paths(context.get());
        else if (SSL_CTX_load_verify_file(context.get(), options_.caFile.c_str()) != 1)
            return {};
        if (!options_.certFile.empty() &&
            (SSL_CTX_use_certificate_chain_file(context.get(), options_.certFile.c_str()) != 1 ||
             SSL_CTX_use_PrivateKey_file(context.get(), options_.keyFile.c_str(),
                                         SSL_FILETYPE_PEM) != 1))
            return {};
        SSL_CTX_set_verify(context.get(), SSL_VERIFY_PEER, nullptr);
        Connection ssl(SSL_new(context.get()), SSL_free);
        SSL_set_fd(ssl.get(), socket.fd());
        if (isIpAddress(host_)) {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl.get()), host_.c_str());
        } else {
            SSL_set_tlsext_host_name(ssl.get(), host_.c_str());
            SSL_set1_host(ssl.get(), host_.c_str());
        }
        if (SSL_connect(ssl.get()) != 1)
            return handshakeFailed(ssl.get());
        // With TLS 1.3 the server judges our certificate after the handshake: it then sends
        // an alert, or a session ticket (etcd's Go server sends one once it accepted us).
        // Without auto-retry, reading the ticket returns WANT_READ instead of waiting for data.
        SSL_clear_mode(ssl.get(), SSL_MODE_AUTO_RETRY);
        char byte = 0;
        const int read = SSL_read(ssl.get(), &byte, 1);
        if (read > 0 || SSL_get_error(ssl.get(), read) == SSL_ERROR_WANT_READ)
            return {};
        return rejectedByServer();
    }

private:
    Error handshakeFailed(SSL* ssl) {
        // The chain the server sent; OpenSSL keeps no "peer certificate" when it fails to verify.
        STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl);
        X509* peer = chain && sk_X509_num(chain) > 0 ? sk_X509_value(chain, 0) : nullptr;
        const long verify = SSL_get_verify_result(ssl);
        if (peer &&
            (verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH))
            return error(ErrorCode::TlsHostMismatch, "the server's certificate names " +
                                                         subjectAltNames(peer) + ", not " + host_);
        if (peer && (verify == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY ||
                     verify == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT ||
                     verify == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT ||
                     verify == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN ||
                     verify == X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE ||
                     verify == X509_V_ERR_CERT_SIGNATURE_FAILURE))
            return error(ErrorCode::TlsUntrustedServer,
                         "the server's certificate (issued by '" + issuerName(peer) +
                             "') is not signed by the CA in " + caDescription());
        if (peer && verify != X509_V_OK)
            return error(ErrorCode::TlsHandshakeFailed,
                         std::string("the server's certificate failed verification: ") +
                             X509_verify_cert_error_string(verify));
        if (peer)
            return rejectedByServer();
        // No certificate came back: is it a plain-text server?
        Socket again;
        if (again.connect(host_, port_, timeout_) && speaksPlainHttp2(again))
            return mismatch("etcd serves plain text at this address, not TLS");
        return error(ErrorCode::TlsHandshakeFailed, "the server did not complete a TLS handshake");
    }

    // The alert the server sent tells why it refused us.
    Error rejectedByServer() {
        const unsigned long last = ERR_peek_last_error();
        const int reason = ERR_GET_REASON(last);
        const bool alert = reason == SSL_R_SSLV3_ALERT_BAD_CERTIFICATE ||
                           reason == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED ||
                           reason == SSL_R_TLSV1_ALERT_UNKNOWN_CA ||
                           reason == SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE ||
                           reason == SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN;
        if (alert && options_.certFile.empty())
            return error(ErrorCode::TlsClientCertRequired,
                         "the server requires a client certificate and none was given");
        if (alert)
            return error(ErrorCode::TlsClientCertRejected,
                         "the server rejected the client certificate '" + options_.certFile + "'");
        char text[256] = {};
        ERR_error_string_n(last, text, sizeof(text));
        return error(ErrorCode::TlsHandshakeFailed,
                     std::string("the server ended the TLS connection: ") +
                         (last ? text : "no reason given"));
    }

    std::string caDescription() const {
        return options_.caFile.empty() ? std::string("the system's trust store (no --cacert)")
                                       : "--cacert '" + options_.caFile + "'";
    }

    Error mismatch(const std::string& what) { return error(ErrorCode::SchemeMismatch, what); }

    Error error(ErrorCode code, const std::string& what) {
        return Error(code, describeError(code, endpoint_.target, what));
    }

    const Endpoint& endpoint_;
    const ClientOptions& options_;
    const std::chrono::milliseconds timeout_;
    std::string host_;
    std::string port_;
};

} // namespace

Error probeConnection(const Endpoint& endpoint, const ClientOptions& options,
                      std::chrono::milliseconds timeout) {
    ERR_clear_error();
    Error found = TlsProbe(endpoint, options, timeout).run();
    ERR_clear_error(); // leave this thread's OpenSSL error queue as we found it
    return found;
}

} // namespace etcd
