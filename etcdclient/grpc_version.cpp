#include "etcdclient/grpc_version.h"

#include <grpcpp/grpcpp.h>

namespace etcd {

std::string grpcVersion() {
    return grpc::Version();
}

} // namespace etcd
