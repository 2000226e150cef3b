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

// gRPC 1.51's texts for transport failures, as seen against real etcd servers.
constexpr const char* refusedText =
    "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:23799: Failed to "
    "connect to remote host: Connection refused";
constexpr const char* unresolvedText =
    "DNS resolution failed for nosuchhost.invalid:2379: C-ares status is not ARES_SUCCESS "
    "qtype=AAAA name=nosuchhost.invalid is_balancer=0: Domain name not found";
constexpr const char* tlsRejectedText = "failed to connect to all addresses; last error: "
                                        "UNAVAILABLE: ipv4:127.0.0.1:23790: Endpoint read failed";

TEST(ErrorTest, ARefusedConnectionSaysNothingListens) {
    const auto error =
        errorFromStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, refusedText), "h:1");
    EXPECT_EQ(error.code, ErrorCode::Unavailable);
    EXPECT_EQ(error.message, "unavailable (h:1): connection refused: nothing listens at this "
                             "address; check that etcd is running and that --endpoints names "
                             "its client URL");
    EXPECT_FALSE(
        etcd::connectionFailedVaguely(grpc::Status(grpc::StatusCode::UNAVAILABLE, refusedText)));
}

TEST(ErrorTest, ASilentServerIsNoAnswerAtAll) {
    const auto error = errorFromStatus(
        grpc::Status(grpc::StatusCode::UNAVAILABLE,
                     "failed to connect to all addresses; last error: UNKNOWN: "
                     "ipv4:127.0.0.1:23795: connection attempt timed out before receiving "
                     "SETTINGS frame"),
        "h:1");
    EXPECT_EQ(error.code, ErrorCode::Unavailable);
    EXPECT_EQ(error.message, "unavailable (h:1): no answer: the connection was accepted but "
                             "nothing spoke gRPC on it in time; check that etcd is running and "
                             "that --endpoints names its client URL");
}

TEST(ErrorTest, AConnectionGoneSilentSaysEtcdMayBeHung) {
    const auto error = errorFromStatus(
        grpc::Status(grpc::StatusCode::UNAVAILABLE, "keepalive watchdog timeout"), "h:1");
    EXPECT_EQ(error.code, ErrorCode::Unavailable);
    EXPECT_EQ(error.message, "unavailable (h:1): no answer: the connection went silent "
                             "(keepalive watchdog timeout); etcd may be stopped, hung or "
                             "overloaded, or the network between cut; check that etcd is running "
                             "and that --endpoints names its client URL");
}

// A deadline names the member asked (one call goes to one member), not the whole cluster.
TEST(ErrorTest, ADeadlineSaysTheMemberAskedMayBeHung) {
    const auto error = errorFromStatus(
        grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "Deadline Exceeded"), "h:1");
    EXPECT_EQ(error.code, ErrorCode::DeadlineExceeded);
    EXPECT_NE(error.message.find("(h:1)"), std::string::npos) << error.message;
    EXPECT_NE(error.message.find("the member asked may be stopped, hung or overloaded"),
              std::string::npos)
        << error.message;
}

TEST(ErrorTest, AFailedLookupIsAUsageErrorAboutTheHost) {
    const auto error = errorFromStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, unresolvedText),
                                       "nosuchhost.invalid:2379");
    EXPECT_EQ(error.code, ErrorCode::HostNotFound);
    EXPECT_TRUE(etcd::isUsageError(error.code));
    EXPECT_EQ(error.message, "host not found (nosuchhost.invalid:2379): 'nosuchhost.invalid' is "
                             "not a host name that resolves (DNS lookup failed); check the host "
                             "name in --endpoints");
}

TEST(ErrorTest, OnlyVagueConnectionFailuresCallForAProbe) {
    using grpc::Status;
    using grpc::StatusCode;
    EXPECT_TRUE(etcd::connectionFailedVaguely(Status(StatusCode::UNAVAILABLE, tlsRejectedText)));
    EXPECT_FALSE(etcd::connectionFailedVaguely(Status(StatusCode::UNAVAILABLE, unresolvedText)));
    EXPECT_FALSE(
        etcd::connectionFailedVaguely(Status(StatusCode::UNAVAILABLE, "etcdserver: no leader")));
    EXPECT_FALSE(etcd::connectionFailedVaguely(Status(StatusCode::DEADLINE_EXCEEDED, "Deadline")));
}

TEST(ErrorTest, EveryConnectionFailureButSilenceLeavesEtcdsHealthAlone) {
    for (ErrorCode code :
         {ErrorCode::HostNotFound, ErrorCode::SchemeMismatch, ErrorCode::TlsFilesInvalid,
          ErrorCode::TlsUntrustedServer, ErrorCode::TlsHostMismatch,
          ErrorCode::TlsClientCertRequired, ErrorCode::TlsClientCertRejected,
          ErrorCode::TlsHandshakeFailed, ErrorCode::AuthFailed, ErrorCode::PermissionDenied}) {
        const std::string message = etcd::describeError(code, "h:1", "detail");
        EXPECT_EQ(message.find("etcd is running"), std::string::npos) << message;
        EXPECT_NE(message.find("; "), std::string::npos) << "no advice: " << message;
    }
    EXPECT_EQ(etcd::describeError(ErrorCode::TlsFilesInvalid, "", "bad key")
                  .rfind("unusable TLS files: bad key; ", 0),
              0u);
}
