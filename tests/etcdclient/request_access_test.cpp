#include "etcdclient/detail/request_access.h"

#include <gtest/gtest.h>

using etcd::detail::accessPhrase;
using etcd::detail::describeKeys;

TEST(RequestAccessTest, KeyRangesAreNamedAsTheUserWroteThem) {
    EXPECT_EQ(describeKeys("/a", ""), "key '/a'");
    EXPECT_EQ(describeKeys("/a/", "/a0"), "keys under '/a/'");
    EXPECT_EQ(describeKeys("/a", std::string(1, '\0')), "keys from '/a' on");
    EXPECT_EQ(describeKeys("/a", "/c"), "keys ['/a', '/c')");
}

TEST(RequestAccessTest, EachRequestSaysWhatItTried) {
    etcdserverpb::RangeRequest range;
    range.set_key("/locks/");
    range.set_range_end("/locks0");
    EXPECT_EQ(accessPhrase(range, "KV.Range"), "read keys under '/locks/'");
    etcdserverpb::PutRequest put;
    put.set_key("/x");
    EXPECT_EQ(accessPhrase(put, "KV.Put"), "write key '/x'");
    etcdserverpb::LeaseGrantRequest grant;
    EXPECT_EQ(accessPhrase(grant, "Lease.LeaseGrant"), "call Lease.LeaseGrant");
}
