#include "etcdclient/detail/request_access.h"

#include "etcdclient/key_range.h"

namespace etcd::detail {

std::string describeKeys(const std::string& key, const std::string& rangeEnd) {
    if (rangeEnd.empty())
        return "key '" + key + "'";
    if (rangeEnd == std::string(1, '\0'))
        return "keys from '" + key + "' on";
    if (rangeEnd == prefixRangeEnd(key))
        return "keys under '" + key + "'";
    return "keys ['" + key + "', '" + rangeEnd + "')";
}

std::string describeAccess(const pb::RangeRequest& request) {
    return "read " + describeKeys(request.key(), request.range_end());
}

std::string describeAccess(const pb::PutRequest& request) {
    return "write " + describeKeys(request.key(), "");
}

std::string describeAccess(const pb::DeleteRangeRequest& request) {
    return "delete " + describeKeys(request.key(), request.range_end());
}

std::string describeAccess(const pb::TxnRequest& request) {
    if (request.compare_size() > 0)
        return "run a transaction on " +
               describeKeys(request.compare(0).key(), request.compare(0).range_end());
    return "run a transaction";
}

std::string describeAccess(const pb::WatchCreateRequest& request) {
    return "watch " + describeKeys(request.key(), request.range_end());
}

std::string describeAccess(const v3lockpb::LockRequest& request) {
    return "lock '" + request.name() + "'";
}

std::string describeAccess(const v3lockpb::UnlockRequest& request) {
    return "unlock '" + request.key() + "'";
}

} // namespace etcd::detail
