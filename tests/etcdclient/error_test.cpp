#include "etcdclient/error.h"

#include <grpcpp/support/status.h>
#include <gtest/gtest.h>

using etcd::ErrorCode;
using etcd::errorFromStatus;

TEST(ErrorTest, EtcdMessagesAreClassifiedBeyondTheirGrpcCode) {
    struct Case {
        grpc::StatusCode code;
        const char* message;
        ErrorCode expected;
    };
    const Case cases[] = {
        {grpc::StatusCode::OUT_OF_RANGE, "etcdserver: mvcc: required revision has been compacted",
         ErrorCode::Compacted},
        {grpc::StatusCode::NOT_FOUND, "etcdserver: requested lease not found",
         ErrorCode::LeaseNotFound},
        {grpc::StatusCode::INVALID_ARGUMENT,
         "etcdserver: authentication failed, invalid user ID or password", ErrorCode::AuthFailed},
        {grpc::StatusCode::UNAUTHENTICATED, "etcdserver: invalid auth token",
         ErrorCode::Unauthenticated},
        {grpc::StatusCode::INVALID_ARGUMENT, "etcdserver: user name is empty",
         ErrorCode::Unauthenticated},
        {grpc::StatusCode::PERMISSION_DENIED, "etcdserver: permission denied",
         ErrorCode::PermissionDenied},
        {grpc::StatusCode::UNAVAILABLE, "failed to connect to all addresses",
         ErrorCode::Unavailable},
        {grpc::StatusCode::DEADLINE_EXCEEDED, "Deadline Exceeded", ErrorCode::DeadlineExceeded},
        {grpc::StatusCode::CANCELLED, "Cancelled", ErrorCode::Cancelled},
    };
    for (const auto& c : cases) {
        const auto error = errorFromStatus(grpc::Status(c.code, c.message), "127.0.0.1:2379");
        EXPECT_EQ(error.code, c.expected) << c.message;
        EXPECT_NE(error.message.find("127.0.0.1:2379"), std::string::npos) << error.message;
        EXPECT_NE(error.message.find(c.message), std::string::npos) << error.message;
    }
}

TEST(ErrorTest, AnOkStatusIsNoError) {
    EXPECT_TRUE(errorFromStatus(grpc::Status::OK, "x").ok());
}

TEST(ErrorTest, UnreachableAdviceNamesTheFlagToCheck) {
    const auto error =
        errorFromStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, "connection refused"), "h:1");
    EXPECT_NE(error.message.find("--endpoints"), std::string::npos) << error.message;
}
