#include "process/huge_page_heap.h"

#include <gtest/gtest.h>

namespace lockscope::process {
namespace {

TEST(HugePageHeapTest, AsksForHugePagesInOneArenaBesideWhatTheCallerAlreadyTunes) {
    const std::string asked = "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1";
    EXPECT_EQ(tunablesAskingForHugePages(nullptr), asked);
    EXPECT_EQ(tunablesAskingForHugePages(""), asked);
    EXPECT_EQ(tunablesAskingForHugePages("glibc.malloc.check=3"), "glibc.malloc.check=3:" + asked);
    // A tunable whose name only starts like one of ours is another one.
    EXPECT_EQ(tunablesAskingForHugePages("glibc.malloc.hugetlbx=2"),
              "glibc.malloc.hugetlbx=2:" + asked);
}

TEST(HugePageHeapTest, TheCallersOwnChoiceStands) {
    EXPECT_EQ(tunablesAskingForHugePages("glibc.malloc.hugetlb=0"),
              "glibc.malloc.hugetlb=0:glibc.malloc.arena_max=1");
    EXPECT_EQ(tunablesAskingForHugePages("glibc.malloc.arena_max=4:glibc.malloc.check=3"),
              "glibc.malloc.arena_max=4:glibc.malloc.check=3:glibc.malloc.hugetlb=1");
    EXPECT_EQ(tunablesAskingForHugePages("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0"),
              std::nullopt);
    // MALLOC_ARENA_MAX, glibc's older name, names arena_max too: GLIBC_TUNABLES would win over it.
    EXPECT_EQ(tunablesAskingForHugePages(nullptr, "8"), "glibc.malloc.hugetlb=1");
    EXPECT_EQ(tunablesAskingForHugePages("glibc.malloc.hugetlb=1", "8"), std::nullopt);
}

TEST(HugePageHeapTest, HugePagesAreUsableUnlessTheKernelSaysNever) {
    EXPECT_TRUE(transparentHugePagesUsable("always [madvise] never\n"));
    EXPECT_TRUE(transparentHugePagesUsable("[always] madvise never"));
    EXPECT_FALSE(transparentHugePagesUsable("always madvise [never]"));
    EXPECT_FALSE(transparentHugePagesUsable("")); // no such file: a kernel without them
}

} // namespace
} // namespace lockscope::process
