// standingOf and forceReleaseText: the confirmation follows the key it named as the queue moves
// on, and refuses once that key is gone. Plain queues, no server.
#include "app/core/force_release_standing.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_queue_model.h"
#include "lock_test_data.h"

#include <gtest/gtest.h>

using namespace lockscope;
using namespace lockscope::test;

namespace {

// The plan for the key of `lease` (at create revision `lease`) in lockQueue("/locks/a", …).
ForceReleasePlan planFor(int64_t lease) {
    return {QByteArray::fromStdString(lockKey("/locks/a", lease, lease).key), lease, lease};
}

std::string text(const ForceReleasePlan& plan, const LockQueueModel& queue) {
    return forceReleaseText(plan, standingOf(plan, queue)).toStdString();
}

} // namespace

TEST(ForceReleaseStandingTest, FollowsTheNamedKeyFromWaiterToHolderToGone) {
    etcd::LockQueue queue = lockQueue("/locks/a", 2); // leases 100 (0x64), 101, 102
    LockQueueModel model;
    model.setQueue(&queue, {}, Epoch, WallEpoch);
    const ForceReleasePlan plan = planFor(101);

    ForceReleaseStanding standing = standingOf(plan, model);
    EXPECT_EQ(standing.row, 1);
    EXPECT_FALSE(standing.holds);
    EXPECT_EQ(text(plan, model), "/locks/a/65 waits now, number 1 in the queue; /locks/a/64 "
                                 "holds the lock.\n\nRevoke lease 65. etcd deletes /locks/a/65 "
                                 "and every other key attached to that lease; its holder loses "
                                 "the lock and learns it only when its own keepalive fails. The "
                                 "holder keeps the lock; the waiters behind it move up.");

    queue.keys.erase(queue.keys.begin()); // the holder released: ours holds
    model.setQueue(&queue, {}, Epoch, WallEpoch);
    standing = standingOf(plan, model);
    EXPECT_EQ(standing.row, 0);
    EXPECT_TRUE(standing.holds);
    EXPECT_EQ(standing.nextHolder, QString("/locks/a/66"));
    EXPECT_NE(text(plan, model).find("/locks/a/65 holds the lock now."), std::string::npos);
    EXPECT_NE(text(plan, model).find("The next waiter, /locks/a/66, becomes the holder."),
              std::string::npos);

    queue.keys.erase(queue.keys.begin()); // ours went too
    model.setQueue(&queue, {}, Epoch, WallEpoch);
    EXPECT_TRUE(standingOf(plan, model).gone());
    EXPECT_EQ(text(plan, model), "/locks/a/65 is no longer in the queue (released, expired, or "
                                 "taken away since you asked): there is nothing to force "
                                 "release.");
}

TEST(ForceReleaseStandingTest, AKeyPutAgainIsNotTheOneNamed) {
    etcd::LockQueue queue = lockQueue("/locks/a", 0);
    LockQueueModel model;
    model.setQueue(&queue, {}, Epoch, WallEpoch);
    ForceReleasePlan plan = planFor(100);
    plan.lease = 0;
    EXPECT_NE(text(plan, model).find("Delete the key /locks/a/64 (it has no lease)."),
              std::string::npos);
    EXPECT_NE(text(plan, model).find("Nobody is waiting, so the lock becomes free."),
              std::string::npos);
    queue.keys.front().createRevision = 140; // deleted and put again
    model.setQueue(&queue, {}, Epoch, WallEpoch);
    EXPECT_TRUE(standingOf(plan, model).gone());
}
