#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QVariant>
#include <chrono>
#include <map>
#include <optional>

namespace lockscope {

// Roles the lock models answer beside Qt's, so a view can draw a TTL as a bar.
enum LeaseCountdownRole {
    TtlRemainingRole = Qt::UserRole + 1, // double seconds left; -1 once the lease is gone
    TtlGrantedRole,                      // qint64 seconds the lease was granted with
};

// A lease's TTL as the lock models keep it: the last lookup, counted down locally to any
// moment. Comparable, so a row whose lease was not looked up again stays quiet.
struct LeaseCountdown {
    etcd::LeaseTtl ttl;

    static std::optional<LeaseCountdown> of(const std::map<int64_t, etcd::LeaseTtl>& leases,
                                            int64_t lease);

    // The cell of a TTL column at `now`: "12 s" or "expired", right-aligned, plus the two
    // LeaseCountdownRoles; a stale TTL (etcd::LeaseTtl::stale) is "stale" without them.
    QVariant data(std::chrono::steady_clock::time_point now, int role) const;

    bool operator==(const LeaseCountdown& other) const;
};

} // namespace lockscope
