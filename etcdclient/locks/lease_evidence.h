#pragma once

#include "etcdclient/locks/lock_table.h"
#include "etcdclient/locks/lock_types.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace etcd {

// What etcd's LeaseTimeToLive answers tell about a lease between looks (docs/design.md §3a):
// how often a lease must be looked up, when its countdown is too old to show, and whether the
// deletion of its keys was an expiry. On the wire a revoke and an expiry look alike (the same
// DELETEs; LeaseTimeToLive says -1 after either), so the cause is inferred from the answers.

// How often a lease of `grantedTtlSeconds` is looked up: twice within its TTL, and at least every
// `refresh` (0 or less: not known yet, `refresh`).
std::chrono::milliseconds leaseLookupPeriod(int64_t grantedTtlSeconds,
                                            std::chrono::milliseconds refresh);
// How old a lookup may be before its countdown is stale (LeaseTtl::stale): two periods, so one
// lookup late or lost is not yet stale, but a whole TTL of keepalives may not go unseen. At
// least a second.
std::chrono::milliseconds leaseStaleAfter(int64_t grantedTtlSeconds,
                                          std::chrono::milliseconds refresh);
bool leaseTtlStale(const LeaseTtl& ttl, std::chrono::steady_clock::time_point now,
                   std::chrono::milliseconds refresh);

// Lookups a second that keep every lease in `uses` looked up once a period, with room for the
// ones running low (dueLeases looks those up every tick), within [floor, cap].
int leaseLookupsPerSecond(const std::unordered_map<int64_t, LockTable::LeaseUse>& uses,
                          const std::map<int64_t, LeaseTtl>& known,
                          std::chrono::milliseconds refresh, int floor, int cap);

// Whether a lease whose last answer was `lastAlive` (a lease etcd still had) ended by expiry when
// its keys were deleted (or it was found gone) at `endedAt`. Only with evidence: that answer is
// not stale at `endedAt`, its countdown had run out by then, and it already showed the lease
// unrenewed for at least half its TTL, which no keepalive schedule allows a live session (Go
// renews at a third, ours at a sixth). etcd truncates the seconds it answers, so a lease that
// answers r had less than r + 1 left: unrenewed for more than granted - r - 1. Anything else
// (a stale countdown above all) is no evidence, and the deletion is a release.
bool endedByExpiry(const LeaseTtl& lastAlive, std::chrono::steady_clock::time_point endedAt,
                   std::chrono::milliseconds refresh);

// Whether an answer shows a lease unrenewed for at least half its TTL, as above: nobody keeps
// it alive (a holder that hung or lost its connection, or a client that renews by hand, such as
// python-etcd3's Lock), and etcd ends it when its countdown runs out.
bool leaseUnrenewed(const LeaseTtl& answer);

} // namespace etcd
