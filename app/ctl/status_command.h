#pragma once

#include "app/ctl/ctl_command.h"

namespace lockscope {

// `lockscopectl status [--json]`: every endpoint's own status, like `etcdctl endpoint status`.
// Exit 0 when every endpoint answered, 1 when any did not (its row carries the error).
int runStatusCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
