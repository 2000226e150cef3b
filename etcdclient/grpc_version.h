#pragma once

#include <string>

namespace etcd {

// The version of the gRPC library this program runs with, for About boxes and --version.
std::string grpcVersion();

} // namespace etcd
