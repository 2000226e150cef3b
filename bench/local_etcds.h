#pragma once

#include "etcdclient/client_options.h"
#include "process/local_cluster.h"

#include <memory>
#include <optional>
#include <vector>

namespace lockscope::bench {

// One-member etcds of the bench's own, one per cluster a figure opens, and the options that
// reach each; stopped when this goes.
struct LocalEtcds {
    std::vector<std::unique_ptr<etcd::LocalCluster>> etcds;
    std::vector<etcd::ClientOptions> options;
};
// `count` of them, started; nothing (said on stderr, for `figure`) when one would not start.
std::optional<LocalEtcds> startLocalEtcds(int count, const char* figure);

} // namespace lockscope::bench
