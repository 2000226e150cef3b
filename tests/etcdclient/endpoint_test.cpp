#include "etcdclient/endpoint.h"

#include <gtest/gtest.h>

using etcd::Endpoint;
using etcd::parseEndpoint;

TEST(EndpointTest, AcceptsTheFormsEtcdctlAccepts) {
    Endpoint e;
    std::string error;
    ASSERT_TRUE(parseEndpoint("127.0.0.1:2379", e, error)) << error;
    EXPECT_EQ(e.target, "127.0.0.1:2379");
    EXPECT_FALSE(e.tls);
    ASSERT_TRUE(parseEndpoint("http://localhost:2379/", e, error)) << error;
    EXPECT_EQ(e.target, "localhost:2379");
    ASSERT_TRUE(parseEndpoint("https://etcd.example:2379", e, error)) << error;
    EXPECT_EQ(e.target, "etcd.example:2379");
    EXPECT_TRUE(e.tls);
    ASSERT_TRUE(parseEndpoint("[::1]:2379", e, error)) << error;
    EXPECT_EQ(e.target, "[::1]:2379");
}

TEST(EndpointTest, RejectsMalformedEndpointsWithAMessage) {
    Endpoint e;
    for (const char* bad :
         {"", "localhost", "localhost:", ":2379", "host:abc", "host:70000", "host:0",
          "unix://sock:1", "ftp://host:21", "[::1", "::1]:2379", "[::1]x:2379"}) {
        std::string error;
        EXPECT_FALSE(parseEndpoint(bad, e, error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
}
