#pragma once

namespace etcd {

// gRPC writes its own log lines (handshake failures, DNS errors...) to stderr, where they land
// in the middle of our output and repeat what our Error says. Call this before the first
// Client: gRPC's lines are then dropped, or with `debug` written to stderr prefixed "grpc: ".
void routeGrpcLog(bool debug);

} // namespace etcd
