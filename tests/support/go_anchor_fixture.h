#pragma once

#include "process/go_anchor.h"
#include "support/etcd_fixture.h"

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
};

using GoAnchorTest = WithGoAnchor<EtcdTest>;

} // namespace lockscope::test
