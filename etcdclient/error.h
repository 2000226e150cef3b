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
    Unavailable,      // no endpoint answered: down, unreachable, or refused the connection
    DeadlineExceeded, // the call did not finish within its deadline
    Cancelled,        // the caller or the client's shutdown cancelled it
    AuthFailed,       // wrong user name or password, or auth misconfigured
    Unauthenticated,  // the token is missing or expired (the client re-authenticates once)
    PermissionDenied, // authenticated, but the user's roles do not allow this
    Compacted,        // the requested revision was compacted away
    LeaseNotFound,    // the lease does not exist (expired or revoked)
    WatchCanceled,    // the server cancelled a watch for another reason
    LockLost,         // our lock key was deleted: the session expired or it was force-released
    InvalidArgument,  // the request itself was wrong (bad key, TTL, ...)
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

// Translates a gRPC status from a call to `endpoint` into an Error with advice.
Error errorFromStatus(const grpc::Status& status, const std::string& endpoint);

} // namespace etcd
