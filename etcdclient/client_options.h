#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace etcd {

// How to reach and authenticate to a cluster. Names follow etcdctl's flags.
struct ClientOptions {
    // "host:port", "http://host:port" or "https://host:port"; calls fail over between them.
    std::vector<std::string> endpoints{"127.0.0.1:2379"};
    std::chrono::milliseconds dialTimeout{2000};
    std::chrono::milliseconds commandTimeout{5000};
    std::string username; // empty: no authentication
    std::string password;
    std::string caFile;   // PEM; set for TLS (or use https:// endpoints)
    std::string certFile; // client certificate (PEM), with keyFile
    std::string keyFile;
    // etcd answers large Ranges and Watch batches in one message; gRPC's 4 MiB default is too
    // small.
    int maxReceiveBytes = 256 * 1024 * 1024;
};

} // namespace etcd
