#include "etcdclient/key_range.h"

#include <gtest/gtest.h>

using etcd::keyAfter;
using etcd::prefixRangeEnd;

TEST(KeyRangeTest, PrefixRangeEndIncrementsTheLastByte) {
    EXPECT_EQ(prefixRangeEnd("/locks/"), "/locks0");
    EXPECT_EQ(prefixRangeEnd("a"), "b");
}

TEST(KeyRangeTest, PrefixRangeEndDropsTrailing0xff) {
    EXPECT_EQ(prefixRangeEnd(std::string("a\xff\xff", 3)), "b");
    EXPECT_EQ(prefixRangeEnd(std::string("\xff", 1)), std::string(1, '\0'));
    EXPECT_EQ(prefixRangeEnd(""), std::string(1, '\0'));
}

TEST(KeyRangeTest, KeyAfterIsTheNextPossibleKey) {
    EXPECT_EQ(keyAfter("abc"), std::string("abc\0", 4));
    EXPECT_LT(std::string("abc"), keyAfter("abc"));
    EXPECT_LT(keyAfter("abc"), std::string("abd"));
}
