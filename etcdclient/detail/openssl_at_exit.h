#pragma once

namespace etcd::detail {

// Keeps OpenSSL usable until the process is gone. gRPC's threads outlive a destroyed Client
// (a subchannel may still be starting a TLS handshake), and OpenSSL's own atexit cleanup
// would free the locks under them: a crash at exit, after the program's work is done. Must
// run before anything else in the process initializes OpenSSL; later calls do nothing.
void keepOpenSslUntilExit();

} // namespace etcd::detail
