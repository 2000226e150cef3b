#pragma once

#include "app/ctl/ctl_command.h"

namespace lockscope {

// `lockscopectl lab [options]`: runs the contention lab headless for a while, then prints the
// mutual-exclusion checker's report (JSON with --json). Ctrl-C ends the run early.
int runLabCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
