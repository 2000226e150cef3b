#pragma once

#include "process/go_anchor.h"
#include "support/etcd_fixture.h"

#include <gtest/gtest.h>

namespace lockscope::test {

// EtcdTest with the Go anchor (process/go_anchor.h) on the suite's etcd; skipped, saying why
// and what to install, when the build found no Go.
class GoAnchorTest : public EtcdTest {
protected:
    void SetUp() override {
        if (process::goAnchorPath().empty())
            GTEST_SKIP() << process::goAnchorMissing;
        EtcdTest::SetUp();
    }
    // Runs `command args...` of the anchor (main.go) against the suite's etcd.
    std::unique_ptr<process::GoAnchor> goAnchor(std::vector<std::string> commandAndArgs) {
        return std::make_unique<process::GoAnchor>(cluster().endpointList(),
                                                   std::move(commandAndArgs));
    }
};

} // namespace lockscope::test
