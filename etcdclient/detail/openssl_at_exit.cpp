#include "etcdclient/detail/openssl_at_exit.h"

#include <openssl/crypto.h>

namespace etcd::detail {

void keepOpenSslUntilExit() {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
}

} // namespace etcd::detail
