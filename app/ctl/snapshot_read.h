#pragma once

#include "app/core/connection_options.h"
#include "app/ctl/prefix_arguments.h"
#include "etcdclient/locks/lock_types.h"

#include <optional>

namespace lockscope {

// Every lock under the arguments' prefix at one revision (etcd::readLockSnapshot), for the
// commands that print one read; nothing once it said why, its exit code then in `exitCode`.
std::optional<etcd::LockMonitorState>
readSnapshotUnder(const PrefixArguments& args, const ConnectionOptions& connection, int& exitCode);

} // namespace lockscope
