#include "etcdclient/locks/lock_name_ranges.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

using etcd::LockNameRanges;
using Range = LockNameRanges::Range;
using Ranges = std::vector<Range>;

TEST(LockNameRanges, OverlappingRangesMerge) {
    LockNameRanges ranges;
    ranges.add(Range{"/c", "/e", false});
    ranges.add("/a");
    ranges.add(Range{"/d", "/g", false}); // reaches into /c../e from inside
    ranges.add("/f");                     // already in
    EXPECT_EQ(ranges.ranges(), (Ranges{{"/a", "/a", false}, {"/c", "/g", false}}));
    ranges.add(Range{"/0", "/c", false}); // swallows /a and joins /c../g
    EXPECT_EQ(ranges.ranges(), (Ranges{{"/0", "/g", false}}));
    ranges.add(Range{"/b", {}, true});
    EXPECT_EQ(ranges.ranges(), (Ranges{{"/0", {}, true}}));
    EXPECT_TRUE(ranges.contains("/zzz"));
    EXPECT_FALSE(ranges.contains("/"));
}

TEST(LockNameRanges, RemovingThroughANameKeepsWhatFollowsIt) {
    LockNameRanges ranges;
    ranges.add("/a");
    ranges.add(Range{"/c", "/e", false});
    ranges.add(Range{"/x", {}, true});
    ranges.removeThrough("/d");
    EXPECT_FALSE(ranges.contains("/a"));
    EXPECT_FALSE(ranges.contains("/d"));
    EXPECT_TRUE(ranges.contains("/d0")); // after /d, still within /c../e
    EXPECT_TRUE(ranges.contains("/e"));
    ranges.removeThrough("/e"); // the end of that range exactly
    EXPECT_EQ(ranges.ranges(), (Ranges{{"/x", {}, true}}));
    ranges.removeThrough("/y");
    EXPECT_EQ(ranges.ranges(), (Ranges{{std::string("/y") + '\0', {}, true}}));
    EXPECT_FALSE(LockNameRanges::everything().empty());
    EXPECT_TRUE(LockNameRanges::everything().contains(""));
}

// Random ranges over a small alphabet, against the set of names they cover.
TEST(LockNameRanges, CoversExactlyTheNamesAdded) {
    const std::vector<std::string> names = {"a", "aa", "ab", "b", "ba", "c", "ca", "d", "e"};
    std::mt19937 random(17);
    for (int round = 0; round < 300; ++round) {
        LockNameRanges ranges;
        std::set<std::string> covered;
        for (int step = 0; step < 4; ++step) {
            std::size_t i = random() % names.size(), j = random() % names.size();
            if (i > j)
                std::swap(i, j);
            const bool toEnd = random() % 5 == 0;
            ranges.add(Range{names[i], names[j], toEnd});
            for (std::size_t k = i; k < names.size() && (toEnd || k <= j); ++k)
                covered.insert(names[k]);
        }
        const std::size_t cut = random() % names.size();
        if (random() % 2) {
            ranges.removeThrough(names[cut]);
            for (std::size_t k = 0; k <= cut; ++k)
                covered.erase(names[k]);
        }
        for (const std::string& name : names)
            EXPECT_EQ(ranges.contains(name), covered.contains(name)) << name << " round " << round;
        const Ranges all = ranges.ranges();
        for (std::size_t k = 1; k < all.size(); ++k) // disjoint and in order
            EXPECT_LT(all[k - 1].last, all[k].first);
    }
}
