#pragma once

#include "etcdclient/client_options.h"
#include "etcdclient/endpoint.h"
#include "etcdclient/error.h"

#include <chrono>

namespace etcd {

// Why gRPC could not connect to `endpoint`, learned by connecting ourselves: gRPC's status
// text says "Endpoint read failed" or "Socket closed" where the cause is a certificate or a
// scheme. For https, a TLS handshake with the same --cacert, --cert, --key and host check; for
// http, a test whether the server speaks TLS instead. Returns an Error whose code and message name
// the cause, or an ok Error when our own connection succeeds (the cause is elsewhere).
// Blocks for up to about twice `timeout`: call it off the GUI thread.
Error probeConnection(const Endpoint& endpoint, const ClientOptions& options,
                      std::chrono::milliseconds timeout);

} // namespace etcd
