#pragma once

#include "app/ctl/ctl_command.h"

namespace lockscope {

// A deadlock exists under the prefix: for cron jobs and scripts.
constexpr int ExitDeadlock = 5;

// `lockscopectl blockers PREFIX [--json]`: who waits for whom across every lock under PREFIX
// at one revision (etcd::WaitForGraph): the root blockers with their trees of waiters, and the
// deadlocks with the lease to revoke to break each. Exits ExitDeadlock when there is one.
int runBlockersCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
