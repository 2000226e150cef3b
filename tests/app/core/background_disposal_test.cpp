// disposeInBackground: the value is destroyed once, on the disposal thread.
#include "app/core/background_disposal.h"

#include <atomic>
#include <gtest/gtest.h>
#include <memory>
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

} // namespace
