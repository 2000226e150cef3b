#pragma once

// Plain lock data for the model tests: what a LockMonitor would report, without a server.
#include "etcdclient/hex_id.h"
#include "etcdclient/locks/lock_monitor.h"

#include <chrono>
#include <string>

namespace lockscope::test {

inline const auto Epoch = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
inline const auto WallEpoch = std::chrono::system_clock::time_point{} + std::chrono::hours(1);

// The key etcdctl would make for `lease` under lock `name`.
inline etcd::LockKey lockKey(const std::string& name, int64_t lease, int64_t createRevision) {
    etcd::LockKey key;
    key.key = name + "/" + etcd::leaseHex(lease);
    key.lease = lease;
    key.createRevision = createRevision;
    key.modRevision = createRevision;
    key.enqueuedAt = WallEpoch;
    return key;
}

// A lock with a holder and `waiters` behind it; leases and revisions count up from `first`.
inline etcd::LockQueue lockQueue(const std::string& name, int waiters, int64_t first = 100) {
    etcd::LockQueue queue;
    queue.name = name;
    for (int i = 0; i <= waiters; ++i)
        queue.keys.push_back(lockKey(name, first + i, first + i));
    return queue;
}

// A key of lock /locks/a joining its queue at `revision`, as the monitor reports it.
inline etcd::LockEvent enqueuedEvent(int64_t revision) {
    etcd::LockEvent event{};
    event.kind = etcd::LockEventKind::Enqueued;
    event.lock = "/locks/a";
    event.key = "/locks/a/" + std::to_string(revision);
    event.revision = revision;
    event.createRevision = revision;
    return event;
}

inline etcd::LeaseTtl leaseTtl(int64_t seconds, int64_t granted = 60) {
    etcd::LeaseTtl ttl;
    ttl.ttlSeconds = seconds;
    ttl.grantedTtlSeconds = granted;
    ttl.fetchedAt = Epoch;
    return ttl;
}

} // namespace lockscope::test
