#pragma once

#include "etcdclient/client.h"
#include "figures.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lockscope::bench {

// Puts `shape`'s lock keys under `prefix`, 128 puts per Txn (etcd's cap): lock<n>/<lease hex>.
// With `sessions` (one lease per key of a lock, keysPerLock of them) key j of every lock is
// session j's, on its lease, as Go's concurrency.Mutex would write it; without, every key gets
// a made-up lease ID of its own and no lease.
void fillLockKeys(etcd::Client& client, const std::string& prefix, const MonitorShape& shape,
                  const std::vector<int64_t>& sessions = {});
// Deletes every key under `prefix`.
void clearPrefix(etcd::Client& client, const std::string& prefix);

} // namespace lockscope::bench
