#pragma once

#include "rpc.pb.h"
#include "v3lock.pb.h"

#include <string>

namespace etcd::detail {

namespace pb = ::etcdserverpb;

// What a request tried to do to which keys, for a permission error: "read keys under '/a/'".

// "key '/a'", "keys under '/a/'", "keys from '/a' on" or "keys ['/a', '/b')".
std::string describeKeys(const std::string& key, const std::string& rangeEnd);

std::string describeAccess(const pb::RangeRequest& request);
std::string describeAccess(const pb::PutRequest& request);
std::string describeAccess(const pb::DeleteRangeRequest& request);
std::string describeAccess(const pb::TxnRequest& request);
std::string describeAccess(const pb::WatchCreateRequest& request);
std::string describeAccess(const v3lockpb::LockRequest& request);
std::string describeAccess(const v3lockpb::UnlockRequest& request);
// For any request of the call `method` ("Lease.LeaseGrant"): one of the above where there is
// one, else "call <method>".
template <class Request> std::string accessPhrase(const Request& request, const char* method) {
    if constexpr (requires { describeAccess(request); })
        return describeAccess(request);
    else
        return std::string("call ") + method;
}

} // namespace etcd::detail
