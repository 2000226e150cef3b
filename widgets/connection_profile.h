#pragma once

#include <QString>

namespace lockscope {

// A saved way to reach a cluster, as the connection dialog edits it. The password is never
// saved: the dialog asks for it each time.
struct ConnectionProfile {
    QString name;
    QString endpoints; // comma-separated, as etcdctl's --endpoints
    QString caFile, certFile, keyFile;
    QString user; // empty: no authentication
    bool readOnly = false;

    bool operator==(const ConnectionProfile&) const = default;
};

} // namespace lockscope
