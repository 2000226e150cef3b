#pragma once

#include "app/ctl/ctl_command.h"

namespace lockscope {

// `lockscopectl record PREFIX --to FILE`: records every lock event under PREFIX, checkpoints of
// the whole lock state and every gap into an SQLite file (LockHistoryStore) until SIGINT or
// SIGTERM; `lockscopectl history` reads it.
int runRecordCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
