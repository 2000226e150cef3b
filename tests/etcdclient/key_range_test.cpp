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

// A million keys after a first page of 5000 come in about ten more pages, not 200: etcd 3.4
// walks the rest of the range on every page.
TEST(NextPageLimit, GrowsPagesSoALargeRangeTakesAboutTenMore) {
    EXPECT_EQ(etcd::nextPageLimit(5000, 1000), 5000);
    EXPECT_EQ(etcd::nextPageLimit(5000, 0), 5000);
    EXPECT_EQ(etcd::nextPageLimit(5000, 10'000'000), etcd::MaxPageKeys);
    EXPECT_EQ(etcd::nextPageLimit(300'000, 10'000'000), 300'000); // never below the first
    int64_t left = 1'000'000 - 5000;
    int pages = 1;
    while (left > 0) {
        left -= etcd::nextPageLimit(5000, 1'000'000);
        ++pages;
    }
    EXPECT_LE(pages, 12);
    EXPECT_GE(pages, 8);
}
