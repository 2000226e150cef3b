#include "etcdclient/locks/anomaly_changes.h"

#include <gtest/gtest.h>

using etcd::AnomaliesByLock;
using etcd::Anomaly;
using etcd::AnomalyChange;
using etcd::AnomalyKind;

namespace {
const Anomaly noLease{"/l/a", AnomalyKind::NoLease, "no lease"};
const Anomaly mismatch{"/l/b", AnomalyKind::LeaseMismatch, "names lease 1 but is attached to 2"};
const Anomaly gone{"/l/b", AnomalyKind::ExpiredLease, "lease 2 is gone"};

// Every change, applied in order to what was seen before them, as a reader of a recording would.
AnomaliesByLock replayed(AnomaliesByLock from, const std::vector<AnomalyChange>& changes) {
    for (const auto& change : changes) {
        auto& ofLock = from[change.lock];
        if (change.appeared)
            ofLock.push_back(change.anomaly);
        else
            std::erase(ofLock, change.anomaly);
        if (ofLock.empty())
            from.erase(change.lock);
    }
    return from;
}
} // namespace

TEST(AnomalyChanges, ALocksFirstAnomaliesAppear) {
    AnomaliesByLock seen;
    std::vector<AnomalyChange> changes;
    etcd::updateLockAnomalies(seen, "/l", {noLease, mismatch}, changes);
    EXPECT_EQ(changes, (std::vector<AnomalyChange>{{true, "/l", noLease}, {true, "/l", mismatch}}));
    EXPECT_EQ(seen, (AnomaliesByLock{{"/l", {noLease, mismatch}}}));
}

TEST(AnomalyChanges, OnlyWhatDiffersIsAChange) {
    AnomaliesByLock seen{{"/l", {noLease, mismatch}}};
    std::vector<AnomalyChange> changes;
    etcd::updateLockAnomalies(seen, "/l", {mismatch, gone}, changes);
    EXPECT_EQ(changes, (std::vector<AnomalyChange>{{false, "/l", noLease}, {true, "/l", gone}}));
    changes.clear();
    etcd::updateLockAnomalies(seen, "/l", {mismatch, gone}, changes);
    EXPECT_TRUE(changes.empty());
}

TEST(AnomalyChanges, ADetailThatChangedIsANewAnomaly) {
    AnomaliesByLock seen{{"/l", {mismatch}}};
    Anomaly renamed = mismatch;
    renamed.detail = "names lease 1 but is attached to 3";
    std::vector<AnomalyChange> changes;
    etcd::updateLockAnomalies(seen, "/l", {renamed}, changes);
    EXPECT_EQ(changes,
              (std::vector<AnomalyChange>{{false, "/l", mismatch}, {true, "/l", renamed}}));
}

TEST(AnomalyChanges, ALockWithoutAnomaliesIsLeftOut) {
    AnomaliesByLock seen{{"/l", {noLease}}, {"/m", {mismatch}}};
    std::vector<AnomalyChange> changes;
    etcd::updateLockAnomalies(seen, "/l", {}, changes);
    EXPECT_EQ(changes, (std::vector<AnomalyChange>{{false, "/l", noLease}}));
    EXPECT_EQ(seen, (AnomaliesByLock{{"/m", {mismatch}}}));
    changes.clear();
    etcd::updateLockAnomalies(seen, "/n", {}, changes);
    EXPECT_TRUE(changes.empty());
    EXPECT_EQ(seen.count("/n"), 0u);
}

TEST(AnomalyChanges, AppliedInOrderTheyRebuildWhatWasSeen) {
    const AnomaliesByLock before{{"/l", {noLease}}, {"/m", {mismatch}}};
    AnomaliesByLock seen = before;
    std::vector<AnomalyChange> changes;
    etcd::updateLockAnomalies(seen, "/l", {noLease, gone}, changes);
    etcd::updateLockAnomalies(seen, "/m", {}, changes);
    etcd::updateLockAnomalies(seen, "/n", {mismatch}, changes);
    EXPECT_EQ(replayed(before, changes), seen);
}

TEST(AnomalyChanges, EveryLockBroughtAtOnceLeavesWhatIsNow) {
    const AnomaliesByLock before{{"/l", {noLease}}, {"/m", {mismatch}}};
    const AnomaliesByLock now{{"/l", {noLease, gone}}, {"/n", {mismatch}}};
    AnomaliesByLock seen = before;
    std::vector<AnomalyChange> changes;
    etcd::updateAllAnomalies(seen, now, changes);
    EXPECT_EQ(seen, now);
    EXPECT_EQ(changes, (std::vector<AnomalyChange>{
                           {false, "/m", mismatch}, {true, "/l", gone}, {true, "/n", mismatch}}));
    EXPECT_EQ(replayed(before, changes), now);
}
