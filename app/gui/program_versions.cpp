#include "app/gui/program_versions.h"

#include "etcdclient/grpc_version.h"

namespace lockscope {

ProgramVersions ProgramVersions::current() {
    return {LOCKSCOPE_VERSION, QString::fromLatin1(qVersion()),
            QString::fromStdString(etcd::grpcVersion())};
}

QString ProgramVersions::text() const {
    return QStringLiteral("LockScope %1\nQt %2\ngRPC %3\n").arg(lockscope, qt, grpc);
}

} // namespace lockscope
