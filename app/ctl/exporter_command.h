#pragma once

#include "app/ctl/ctl_command.h"

#include <vector>

namespace lockscope {

// `lockscopectl exporter PREFIX [--listen HOST:PORT] [--max-locks N]`: the locks under PREFIX
// as Prometheus metrics on http://HOST:PORT/metrics (kept live by a LockMonitor), and
// /healthz, until SIGINT or SIGTERM.
int runExporterCommand(const QStringList& arguments, const ConnectionOptions& connection);
// The same for several clusters at once (--profile, repeated), on one listening address.
int runExporterOnClusters(const QStringList& arguments,
                          const std::vector<ConnectionOptions>& connections);

} // namespace lockscope
