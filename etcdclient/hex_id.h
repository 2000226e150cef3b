#pragma once

#include <cstdint>
#include <string>

namespace etcd {

// An etcd id (lease, member, cluster) as etcd and etcdctl print it: lowercase hex, no padding.
std::string hexId(uint64_t id);

// A lease ID in hex, as Go's lock keys (<name>/<lease id in hex>) and etcd's messages spell it.
inline std::string leaseHex(int64_t leaseId) {
    return hexId(static_cast<uint64_t>(leaseId));
}

} // namespace etcd
