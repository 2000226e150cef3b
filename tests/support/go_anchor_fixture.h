#pragma once

#include "process/go_anchor.h"
#include "support/etcd_fixture.h"

#include <csignal>
#include <gtest/gtest.h>

namespace lockscope::test {

// A fixture on the suite's etcd (EtcdTest or one derived from it) with the Go anchor
// (process/go_anchor.h); skipped, saying why and what to install, when the build found no Go.
template <class Fixture> class WithGoAnchor : public Fixture {
protected:
    void SetUp() override {
        if (process::goAnchorPath().empty())
            GTEST_SKIP() << process::goAnchorMissing;
        Fixture::SetUp();
    }
    // Runs `command args...` of the anchor (main.go) against the suite's etcd.
    std::unique_ptr<process::GoAnchor> goAnchor(std::vector<std::string> commandAndArgs) {
        return std::make_unique<process::GoAnchor>(Fixture::cluster().endpointList(),
                                                   std::move(commandAndArgs));
    }
    // The key of a "held" line that comes within a few seconds (a failure when none does).
    static std::string expectHeld(process::GoAnchor& go) {
        auto held = go.awaitLine("held", std::chrono::seconds(10));
        EXPECT_TRUE(held && !held->empty()) << "Go's lock was not acquired: " << go.error();
        return held && !held->empty() ? held->front() : std::string();
    }
    // Ctrl-C to a holding lock command: it unlocks, says so and exits 0.
    static void releaseGo(process::GoAnchor& go) {
        go.process().signal(SIGINT);
        EXPECT_TRUE(go.saw("released", std::chrono::seconds(10))) << go.error();
        EXPECT_EQ(go.process().wait(std::chrono::seconds(10)), 0);
    }
};

using GoAnchorTest = WithGoAnchor<EtcdTest>;

} // namespace lockscope::test
