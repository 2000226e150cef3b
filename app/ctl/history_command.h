#pragma once

#include "app/ctl/ctl_command.h"

namespace lockscope {

// `lockscopectl history FILE [--lock NAME] [--since T] [--until T] [--json] [--report]`: the
// lock events and gaps a recording holds (lockscopectl record), or per lock its acquisitions,
// hold and wait times, expiries, losses and longest waits (LockHistoryReport). Reads the file
// only; needs no etcd.
int runHistoryCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
