#pragma once

#include "app/ctl/ctl_command.h"

namespace lockscope {

// `lockscopectl snapshot PREFIX [--json]`: every lock under PREFIX at one revision, with its
// holder, waiters (position, predecessor) and lease TTLs, and the anomalies found.
int runSnapshotCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
