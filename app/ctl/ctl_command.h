#pragma once

#include "app/core/connection_options.h"
#include "etcdclient/error.h"

#include <QStringList>

namespace lockscope {

// Exit codes shared by every subcommand.
enum ExitCode { ExitOk = 0, ExitFailed = 1, ExitUsage = 2 };

// ExitUsage when what the user gave is wrong (a host that does not resolve, unusable TLS
// files), ExitFailed for everything else.
inline int exitCodeFor(etcd::ErrorCode code) {
    return etcd::isUsageError(code) ? ExitUsage : ExitFailed;
}

// One lockscopectl subcommand. `arguments` start with the subcommand's name, so a command can
// hand them to its own QCommandLineParser; the global connection flags are already read. They
// come from losslessArguments(): argumentBytes() gives an argument's exact bytes, and a lock
// name or prefix is then parseKeyText() of those (so `\xNN` and `\\` escapes work too).
struct CtlCommand {
    const char* name;
    const char* summary;
    int (*run)(const QStringList& arguments, const ConnectionOptions& connection);
};

} // namespace lockscope
