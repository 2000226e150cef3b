#include "session_leases.h"

#include "etcdclient/blocking.h"

namespace lockscope::bench {

SessionLeases::SessionLeases(etcd::Client& client, int count, int64_t ttlSeconds)
    : client_(client) {
    for (int i = 0; i < count; ++i) {
        etcd::pb::LeaseGrantRequest grant;
        grant.set_ttl(ttlSeconds);
        if (auto granted = etcd::call(client_, &etcd::Client::leaseGrant, grant))
            ids_.push_back(granted->id());
    }
}

SessionLeases::~SessionLeases() {
    for (int64_t lease : ids_) {
        etcd::pb::LeaseRevokeRequest revoke;
        revoke.set_id(lease);
        etcd::call(client_, &etcd::Client::leaseRevoke, revoke);
    }
}

} // namespace lockscope::bench
