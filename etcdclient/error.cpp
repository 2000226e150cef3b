#include "etcdclient/error.h"

#include <grpcpp/support/status.h>

namespace etcd {

const char* errorCodeName(ErrorCode code) {
    switch (code) {
    case ErrorCode::Ok: return "ok";
    case ErrorCode::Unavailable: return "unavailable";
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

// etcd reports several distinct conditions under one gRPC code; its message text tells them apart.
ErrorCode classify(grpc::StatusCode code, const std::string& msg) {
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
    case ErrorCode::DeadlineExceeded:
        return "the cluster is slow or unreachable; check its health or raise --command-timeout";
    case ErrorCode::AuthFailed: return "check the user name and password given with --user";
    case ErrorCode::Unauthenticated:
        return "this cluster requires authentication; pass --user name:password";
    case ErrorCode::PermissionDenied: return "grant the user a role that allows this key range";
    case ErrorCode::Compacted: return "re-read from a newer revision";
    case ErrorCode::LeaseNotFound: return "the lease expired or was revoked";
    default: return nullptr;
    }
}

} // namespace

Error errorFromStatus(const grpc::Status& status, const std::string& endpoint) {
    if (status.ok())
        return {};
    const std::string& msg = status.error_message();
    ErrorCode code = classify(status.error_code(), msg);
    std::string text = std::string(errorCodeName(code)) + " (" + endpoint +
                       "): " + (msg.empty() ? std::string("no detail from gRPC") : msg);
    if (const char* tip = advice(code))
        text += "; " + std::string(tip);
    return {code, std::move(text)};
}

} // namespace etcd
