#pragma once

#include "etcdclient/locks/lock_types.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <string>
#include <vector>

namespace lockscope {

// `lockscopectl blockers --json`: {"revision", "sessions_waiting", "deadlocks": [{"sessions",
// "waits", "break_by", "break_loses_held"}], "root_blockers": [{"session", "held", "direct",
// "transitive", "ttl", "granted_ttl", "unrenewed", "waits"}]}. A session is {"lease",
// "lease_hex"} and, for a key without a lease (a session of its own), {"key", "key_b64"}. A wait
// is {"lock", "waiting_key", "on_key" (each with "*_b64"), "waiter", "on"}; a root blocker's
// "waits" are its tree of waiters, nearest first. "unrenewed": its lease's TTL shows nobody
// renewed it for half its TTL (etcd::leaseUnrenewed), the likely culprit. "held" and
// "break_loses_held" count the locks held that someone waits for. No times: one read cannot tell
// how long anyone has waited.
// `deadlocks` are graph.deadlocks(), found once by the caller, who also needs them.
std::string blockersJson(const etcd::WaitForGraph& graph,
                         const std::vector<etcd::Deadlock>& deadlocks,
                         const etcd::LockMonitorState& state);

} // namespace lockscope
