#pragma once

#include <cstdint>
#include <string>

namespace grpc {
class Status;
}

namespace etcd {

// What went wrong, in the terms an operator acts on. Each code maps to one kind of advice.
enum class ErrorCode {
    Ok,
    Unavailable,           // nothing answered: nothing listens (connection refused) or no reply
    HostNotFound,          // the endpoint's host name does not resolve
    SchemeMismatch,        // https:// against a plain-text etcd, or http:// against a TLS one
    TlsFilesInvalid,       // --cacert, --cert or --key unreadable, or --cert and --key not one pair
    TlsUntrustedServer,    // the server's certificate is not signed by the --cacert CA
    TlsHostMismatch,       // the server's certificate does not name the host dialled
    TlsClientCertRequired, // the server requires a client certificate and none was given
    TlsClientCertRejected, // the server does not trust the client certificate given
    TlsHandshakeFailed,    // another TLS failure; the message carries OpenSSL's reason
    DeadlineExceeded,      // the call did not finish within its deadline
    Cancelled,             // the caller or the client's shutdown cancelled it
    AuthFailed,            // wrong user name or password, or auth misconfigured
    Unauthenticated,       // the token is missing or expired (the client re-authenticates once)
    PermissionDenied,      // authenticated, but the user's roles do not allow this
    Compacted,             // the requested revision was compacted away
    LeaseNotFound,         // the lease does not exist (expired or revoked)
    WatchCanceled,         // the server cancelled a watch for another reason
    LockLost,              // our lock key was deleted: the session expired or it was force-released
    InvalidArgument,       // the request itself was wrong (bad key, TTL, ...)
    ResourceExhausted,
    FailedPrecondition,
    NotFound,
    Unimplemented,
    Internal,
    Unknown,
};

struct Error {
    ErrorCode code = ErrorCode::Ok;
    std::string message;         // one line, says what failed and what to do about it
    int64_t compactRevision = 0; // set with ErrorCode::Compacted

    Error() = default;
    Error(ErrorCode c, std::string msg, int64_t compactRev = 0)
        : code(c)
        , message(std::move(msg))
        , compactRevision(compactRev) {}

    bool ok() const { return code == ErrorCode::Ok; }
};

const char* errorCodeName(ErrorCode code);

// Errors in what the user gave (an endpoint's host, the TLS files) rather than in the cluster:
// a command-line program exits with its usage status for them.
bool isUsageError(ErrorCode code);

// The call failed before reaching etcd (nothing answered, or the connection could not be set
// up): another member may still answer.
bool isConnectionFailure(ErrorCode code);

// Nothing answered, or not in time: the same call may well succeed soon, on this member or
// another. What a stream reopens after, and what a lock waiter queues again after.
bool isTransient(ErrorCode code);

// The one-line message of every Error: "<code name> (<endpoint>): <detail>; <the code's advice>"
// (without the parentheses when no endpoint is concerned).
std::string describeError(ErrorCode code, const std::string& endpoint, const std::string& detail);

// Translates a gRPC status from a call to `endpoint` into an Error with advice.
Error errorFromStatus(const grpc::Status& status, const std::string& endpoint);

// gRPC could not set up a connection although something may listen there (not refused, not a
// DNS failure): its text ("Socket closed", "Endpoint read failed") hides the cause, which a
// connection probe (connection_probe.h) can find.
bool connectionFailedVaguely(const grpc::Status& status);

} // namespace etcd
