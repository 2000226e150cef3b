#include "process/huge_page_heap.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// What the program run again does first: GLIBC_TUNABLES back as the caller had it (the marker's
// value; "-": none), for the children it starts, and the marker gone. Each case sets
// GLIBC_TUNABLES to name both tunables already, so nothing here can exec the test again.
TEST(HugePageHeapTest, TheProgramRunAgainPutsBackTheCallersTunables) {
    const char* name = "LOCKSCOPE_CALLER_GLIBC_TUNABLES";
    const char* before = std::getenv("GLIBC_TUNABLES");
    const std::optional<std::string> callers =
        before ? std::optional<std::string>(before) : std::nullopt;
    char program[] = "lockscope-not-run";
    char* argv[] = {program, nullptr};
    for (const auto& [marker, expected] : std::vector<std::pair<const char*, const char*>>{
             {"=glibc.malloc.check=3", "glibc.malloc.check=3"}, {"=", ""}, {"-", nullptr}}) {
        SCOPED_TRACE(marker);
        setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1", 1);
        setenv(name, marker, 1);
        restartWithHugePageHeap(argv);
        const char* tunables = std::getenv("GLIBC_TUNABLES");
        EXPECT_EQ(tunables ? std::optional<std::string>(tunables) : std::nullopt,
                  expected ? std::optional<std::string>(expected) : std::nullopt);
        EXPECT_EQ(std::getenv(name), nullptr);
    }
    if (callers)
        setenv("GLIBC_TUNABLES", callers->c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
}

} // namespace
} // namespace lockscope::process
