// disposeInBackground: the value is destroyed once, on the disposal thread.
#include "app/core/background_disposal.h"

#include <atomic>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace lockscope;

namespace {

struct DestroyedWhere {
    std::atomic<int>* count;
    std::thread::id* where;
    DestroyedWhere(std::atomic<int>* count, std::thread::id* where)
        : count(count)
        , where(where) {}
    DestroyedWhere(DestroyedWhere&& other) noexcept
        : count(std::exchange(other.count, nullptr))
        , where(other.where) {}
    DestroyedWhere(const DestroyedWhere&) = delete;
    ~DestroyedWhere() {
        if (!count)
            return; // moved from
        *where = std::this_thread::get_id();
        ++*count;
    }
};

TEST(BackgroundDisposalTest, TheValueIsDestroyedOnceOnAnotherThread) {
    std::atomic<int> destroyed = 0;
    std::thread::id where;
    disposeInBackground(DestroyedWhere(&destroyed, &where));
    waitForDisposals();
    EXPECT_EQ(destroyed.load(), 1);
    EXPECT_NE(where, std::this_thread::get_id());
    EXPECT_NE(where, std::thread::id());
}

TEST(BackgroundDisposalTest, AMovedFromContainerIsLeftEmptyAndUsable) {
    std::vector<std::unique_ptr<int>> rows;
    for (int i = 0; i < 1000; ++i)
        rows.push_back(std::make_unique<int>(i));
    disposeInBackground(std::exchange(rows, {}));
    EXPECT_TRUE(rows.empty());
    rows.push_back(std::make_unique<int>(7));
    waitForDisposals();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(*rows.front(), 7);
}

long residentKb() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.starts_with("VmRSS:"))
            return std::stol(line.substr(6));
    return -1;
}

// Small blocks freed below blocks still held stay resident unless given back: 160 MB of them
// stayed, after their free, in a test like this one without the disposal's trim.
TEST(BackgroundDisposalTest, WhatAViewFreedIsGivenBackToTheSystem) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "a sanitizer's allocator holds freed memory in its own way";
#endif
    std::vector<std::unique_ptr<std::string>> freed, held;
    for (int i = 0; i < 1'000'000; ++i) {
        freed.push_back(std::make_unique<std::string>(100, 'f'));
        if (i % 10'000 == 0)
            held.push_back(std::make_unique<std::string>(100, 'h')); // above what is freed
    }
    const long before = residentKb();
    ASSERT_GT(before, 100'000) << "the blocks were not made resident";
    disposeInBackground(std::exchange(freed, {}));
    waitForDisposals();
    EXPECT_LT(residentKb(), before - 80'000) << "the freed blocks' pages stayed resident";
    EXPECT_EQ(held.size(), 100u);
}

} // namespace
