#pragma once

#include "app/ctl/ctl_command.h"

namespace lockscope {

// `lockscopectl watch PREFIX [--json]`: one line per lock event (enqueued, acquired, released,
// expired) as it happens, one JSON object per line with --json, until SIGINT or SIGTERM.
int runWatchCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
