#pragma once

#include "etcdclient/client_options.h"
#include "etcdclient/result.h"

#include <string>

namespace etcd {

// The PEM text of the TLS files named in ClientOptions ("" where none is named).
struct TlsFiles {
    std::string caPem;
    std::string certPem;
    std::string keyPem;
};

// Reads --cacert, --cert and --key and checks them with OpenSSL before anything is dialled:
// each file parses as what it should be, and the client certificate and key are one pair.
// ErrorCode::TlsFilesInvalid names the file and what is wrong with it.
Result<TlsFiles> readTlsFiles(const ClientOptions& options);

} // namespace etcd
