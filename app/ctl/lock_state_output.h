#pragma once

#include "etcdclient/locks/lock_types.h"

#include <string>

namespace lockscope {

// Prints every lock of `state` under `prefix` as `lockscopectl snapshot` does: a table of each
// queue in turn after a line naming the revision, then the anomalies; or one JSON document.
void printLockState(const etcd::LockMonitorState& state, const std::string& prefix, bool json);

} // namespace lockscope
