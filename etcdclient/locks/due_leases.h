#pragma once

#include "etcdclient/locks/lock_table.h"
#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace etcd {

// The leases in use to look up now, at most `budget`: those never looked up, those looked at
// longer than their period ago (leaseLookupPeriod: `refresh`, or half their TTL when shorter),
// and those whose countdown runs low (so a live lease never appears to run out). Holders' leases
// come first, then the ones looked at longest ago: at a bounded rate every lease gets its turn,
// however many there are. A lease known to be gone is not looked up again.
std::vector<int64_t> dueLeases(const std::unordered_map<int64_t, LockTable::LeaseUse>& uses,
                               const std::map<int64_t, LeaseTtl>& known,
                               std::chrono::steady_clock::time_point now,
                               std::chrono::milliseconds refresh, std::size_t budget);

} // namespace etcd
