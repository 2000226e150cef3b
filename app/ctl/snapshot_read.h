#pragma once

#include "app/core/connection_options.h"
#include "app/ctl/prefix_arguments.h"
#include "etcdclient/client.h"
#include "etcdclient/locks/lock_types.h"

#include <memory>
#include <optional>

namespace lockscope {

// Every lock under the arguments' prefix at one revision (etcd::readLockSnapshot), for the
// commands that print one read; nothing once it said why, its exit code then in `exitCode`.
// `revision` (not 0) reads the locks as they were then; a revision etcd has compacted away or
// not reached yet is said with the revisions it can read.
// `client`, when given, receives the client that read it (for its caller to close when it
// suits, such as while it prints) instead of it being closed before this returns.
std::optional<etcd::LockMonitorState>
readSnapshotUnder(const PrefixArguments& args, const ConnectionOptions& connection, int& exitCode,
                  int64_t revision = 0, std::unique_ptr<etcd::Client>* client = nullptr);

} // namespace lockscope
