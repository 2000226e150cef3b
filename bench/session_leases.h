#pragma once

#include "etcdclient/client.h"

#include <cstdint>
#include <vector>

namespace lockscope::bench {

// Leases for the bench's stand-in sessions, granted at construction and revoked (which deletes
// their keys) on destruction. A grant etcd refuses is left out of ids().
class SessionLeases {
public:
    SessionLeases(etcd::Client& client, int count, int64_t ttlSeconds);
    ~SessionLeases();
    SessionLeases(const SessionLeases&) = delete;
    SessionLeases& operator=(const SessionLeases&) = delete;

    const std::vector<int64_t>& ids() const { return ids_; }

private:
    etcd::Client& client_;
    std::vector<int64_t> ids_;
};

} // namespace lockscope::bench
