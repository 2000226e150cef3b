#pragma once

#include <string>

namespace etcd {

// One member's client URL as given on the command line.
struct Endpoint {
    std::string target; // "host:port", as gRPC dials it
    bool tls = false;   // true for https:// (or when TLS files are configured)
};

// Accepts "host:port", "http://host:port", "https://host:port" and "[v6]:port".
// Returns false with `error` set when the text is not an endpoint.
bool parseEndpoint(const std::string& text, Endpoint& out, std::string& error);

} // namespace etcd
