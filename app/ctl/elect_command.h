#pragma once

#include "app/core/connection_options.h"

#include <QStringList>

namespace lockscope {

// Exit code beyond ExitOk, ExitFailed and ExitUsage: leadership was lost while we led (the
// session expired or someone deleted our key). The same value as lock's ExitLockLost.
constexpr int ExitLeadershipLost = 4;

// `lockscopectl elect NAME PROPOSAL` campaigns as `etcdctl elect` does and, once leading,
// prints our key and the proposal on two lines (etcdctl's shape), then leads until SIGINT or
// SIGTERM; a line on stdin meanwhile is proclaimed as the new proposal. Every way out resigns
// and revokes the session's lease, so no key or lease stays behind. `elect -l NAME` prints
// each new leader's key and proposal (and each proclaim) the same way, until interrupted.
// NAME is parseKeyText() of its bytes; the proposal is its exact bytes.
int runElectCommand(const QStringList& arguments, const ConnectionOptions& connection);

} // namespace lockscope
