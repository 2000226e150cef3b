#pragma once

#include <QString>

namespace lockscope {

// The versions of what LockScope runs with, as `lockscope --version` and Help → About show them.
struct ProgramVersions {
    QString lockscope;
    QString qt;   // the Qt libraries loaded, which may be newer than the ones built against
    QString grpc; // the gRPC library loaded

    static ProgramVersions current();
    // One "name version" per line.
    QString text() const;
};

} // namespace lockscope
