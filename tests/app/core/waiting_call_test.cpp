// waitsOnTheServer: which RPC methods' durations are waits rather than round trips, pure.
#include "app/core/waiting_call.h"

#include <gtest/gtest.h>

using namespace lockscope;

TEST(WaitingCallTest, TheLockAndElectionServicesWaitForTheLockOrTheLead) {
    EXPECT_TRUE(waitsOnTheServer("Lock.Lock"));
    EXPECT_TRUE(waitsOnTheServer("Election.Campaign"));
}

TEST(WaitingCallTest, EveryOtherCallIsARoundTrip) {
    for (const char* method : {"KV.Range", "KV.Txn", "KV.Put", "Lock.Unlock", "Election.Resign",
                               "Election.Proclaim", "Election.Leader", "Lease.LeaseGrant",
                               "Lease.LeaseTimeToLive", "Maintenance.Status", "Lock"})
        EXPECT_FALSE(waitsOnTheServer(method)) << method;
}
