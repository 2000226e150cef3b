#include "etcdclient/error.h"

#include "etcdclient/alarms.h"
#include "rpc.pb.h"

#include <grpcpp/support/status.h>

namespace etcd {

const char* errorCodeName(ErrorCode code) {
    switch (code) {
    case ErrorCode::Ok: return "ok";
    case ErrorCode::Unavailable: return "unavailable";
    case ErrorCode::HostNotFound: return "host not found";
    case ErrorCode::SchemeMismatch: return "wrong scheme";
    case ErrorCode::TlsFilesInvalid: return "unusable TLS files";
    case ErrorCode::TlsUntrustedServer: return "untrusted server certificate";
    case ErrorCode::TlsHostMismatch: return "server certificate for another host";
    case ErrorCode::TlsClientCertRequired: return "client certificate required";
    case ErrorCode::TlsClientCertRejected: return "client certificate rejected";
    case ErrorCode::TlsHandshakeFailed: return "TLS handshake failed";
    case ErrorCode::DeadlineExceeded: return "deadline exceeded";
    case ErrorCode::Cancelled: return "cancelled";
    case ErrorCode::AuthFailed: return "authentication failed";
    case ErrorCode::Unauthenticated: return "unauthenticated";
    case ErrorCode::PermissionDenied: return "permission denied";
    case ErrorCode::Compacted: return "compacted";
    case ErrorCode::LeaseNotFound: return "lease not found";
    case ErrorCode::WatchCanceled: return "watch canceled";
    case ErrorCode::LockLost: return "lock lost";
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::ResourceExhausted: return "resource exhausted";
    case ErrorCode::FailedPrecondition: return "failed precondition";
    case ErrorCode::NotFound: return "not found";
    case ErrorCode::Unimplemented: return "unimplemented";
    case ErrorCode::Internal: return "internal error";
    case ErrorCode::Unknown: return "unknown error";
    }
    return "unknown error";
}

namespace {

bool contains(const std::string& text, const char* needle) {
    return text.find(needle) != std::string::npos;
}

bool refused(const std::string& msg) {
    return contains(msg, "Connection refused");
}

bool unresolved(const std::string& msg) {
    return contains(msg, "DNS resolution failed");
}

// etcd reports several distinct conditions under one gRPC code, and gRPC several transport
// failures under UNAVAILABLE; the message text tells them apart.
ErrorCode classify(grpc::StatusCode code, const std::string& msg) {
    if (code == grpc::StatusCode::UNAVAILABLE && unresolved(msg))
        return ErrorCode::HostNotFound;
    if (contains(msg, "required revision has been compacted"))
        return ErrorCode::Compacted;
    if (contains(msg, "requested lease not found"))
        return ErrorCode::LeaseNotFound;
    if (contains(msg, "authentication failed") || contains(msg, "authentication is not enabled"))
        return ErrorCode::AuthFailed;
    if (contains(msg, "invalid auth token") || contains(msg, "user name is empty"))
        return ErrorCode::Unauthenticated;
    if (contains(msg, "permission denied"))
        return ErrorCode::PermissionDenied;
    switch (code) {
    case grpc::StatusCode::OK: return ErrorCode::Ok;
    case grpc::StatusCode::CANCELLED: return ErrorCode::Cancelled;
    case grpc::StatusCode::DEADLINE_EXCEEDED: return ErrorCode::DeadlineExceeded;
    case grpc::StatusCode::UNAVAILABLE: return ErrorCode::Unavailable;
    case grpc::StatusCode::UNAUTHENTICATED: return ErrorCode::Unauthenticated;
    case grpc::StatusCode::PERMISSION_DENIED: return ErrorCode::PermissionDenied;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE: return ErrorCode::InvalidArgument;
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return ErrorCode::ResourceExhausted;
    case grpc::StatusCode::FAILED_PRECONDITION: return ErrorCode::FailedPrecondition;
    case grpc::StatusCode::NOT_FOUND: return ErrorCode::NotFound;
    case grpc::StatusCode::UNIMPLEMENTED: return ErrorCode::Unimplemented;
    case grpc::StatusCode::INTERNAL:
    case grpc::StatusCode::DATA_LOSS: return ErrorCode::Internal;
    default: return ErrorCode::Unknown;
    }
}

const char* advice(ErrorCode code) {
    switch (code) {
    case ErrorCode::Unavailable:
        return "check that etcd is running and that --endpoints names its client URL";
    case ErrorCode::HostNotFound: return "check the host name in --endpoints";
    case ErrorCode::SchemeMismatch:
        return "write the endpoint with the scheme etcd serves: http:// for plain text, "
               "https:// (with --cacert) for TLS";
    case ErrorCode::TlsFilesInvalid:
        return "give readable PEM files: the CA with --cacert, a certificate with --cert and "
               "that certificate's own key with --key";
    case ErrorCode::TlsUntrustedServer:
        return "pass with --cacert the CA that signed etcd's --cert-file";
    case ErrorCode::TlsHostMismatch:
        return "connect by a name or address the certificate lists, or reissue etcd's "
               "certificate with this host among its subject alternative names";
    case ErrorCode::TlsClientCertRequired:
        return "etcd runs with --client-cert-auth: pass a client certificate with --cert and "
               "its key with --key";
    case ErrorCode::TlsClientCertRejected:
        return "pass a client certificate signed by a CA in etcd's --trusted-ca-file";
    case ErrorCode::TlsHandshakeFailed:
        return "check --cacert, --cert and --key against etcd's TLS flags";
    case ErrorCode::DeadlineExceeded:
        return "no answer in time: the member asked may be stopped, hung or overloaded, or the "
               "cluster slow; check its health or raise --command-timeout";
    case ErrorCode::AuthFailed: return "check the user name and password given with --user";
    case ErrorCode::Unauthenticated:
        return "this cluster requires authentication; pass --user name:password";
    case ErrorCode::PermissionDenied: return "grant the user a role that allows this key range";
    case ErrorCode::Compacted: return "re-read from a newer revision";
    case ErrorCode::LeaseNotFound: return "the lease expired or was revoked";
    default: return nullptr;
    }
}

// What to say instead of gRPC's text where that text is transport jargon.
std::string detail(ErrorCode code, const std::string& msg, const std::string& endpoint) {
    if (code == ErrorCode::HostNotFound)
        return "'" + endpoint.substr(0, endpoint.rfind(':')) +
               "' is not a host name that resolves (" +
               (contains(msg, "unparseable") ? "unparseable" : "DNS lookup failed") + ")";
    if (code == ErrorCode::Unavailable && refused(msg))
        return "connection refused: nothing listens at this address";
    if (code == ErrorCode::Unavailable && contains(msg, "timed out before receiving SETTINGS"))
        return "no answer: the connection was accepted but nothing spoke gRPC on it in time";
    // A member stopped (SIGSTOP), hung or cut off keeps its connection open and goes silent.
    // etcd's own text names neither the alarm behind it nor its cure.
    if (contains(msg, "database space exceeded"))
        return "database space exceeded: etcd's NOSPACE alarm is raised: " +
               alarmCure(etcdserverpb::NOSPACE);
    if (code == ErrorCode::Unavailable && contains(msg, "keepalive watchdog timeout"))
        return "no answer: the connection went silent (keepalive watchdog timeout); etcd may "
               "be stopped, hung or overloaded, or the network between cut";
    return msg.empty() ? std::string("no detail from gRPC") : msg;
}

} // namespace

bool isUsageError(ErrorCode code) {
    return code == ErrorCode::HostNotFound || code == ErrorCode::TlsFilesInvalid;
}

bool isConnectionFailure(ErrorCode code) {
    switch (code) {
    case ErrorCode::Unavailable:
    case ErrorCode::HostNotFound:
    case ErrorCode::SchemeMismatch:
    case ErrorCode::TlsUntrustedServer:
    case ErrorCode::TlsHostMismatch:
    case ErrorCode::TlsClientCertRequired:
    case ErrorCode::TlsClientCertRejected:
    case ErrorCode::TlsHandshakeFailed: return true;
    default: return false;
    }
}

bool isTransient(ErrorCode code) {
    return code == ErrorCode::Unavailable || code == ErrorCode::DeadlineExceeded;
}

std::string describeError(ErrorCode code, const std::string& endpoint, const std::string& detail) {
    std::string text = errorCodeName(code);
    if (!endpoint.empty())
        text += " (" + endpoint + ")";
    text += ": " + detail;
    if (const char* tip = advice(code))
        text += "; " + std::string(tip);
    return text;
}

Error errorFromStatus(const grpc::Status& status, const std::string& endpoint) {
    if (status.ok())
        return {};
    const std::string& msg = status.error_message();
    const ErrorCode code = classify(status.error_code(), msg);
    return {code, describeError(code, endpoint, detail(code, msg, endpoint))};
}

bool connectionFailedVaguely(const grpc::Status& status) {
    const std::string& msg = status.error_message();
    return status.error_code() == grpc::StatusCode::UNAVAILABLE &&
           (contains(msg, "failed to connect to all addresses") ||
            contains(msg, "empty address list")) &&
           !refused(msg) && !unresolved(msg);
}

} // namespace etcd
