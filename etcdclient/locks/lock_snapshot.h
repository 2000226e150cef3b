#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/lock_monitor.h"

#include <functional>
#include <string>

namespace etcd {

// One consistent look at every lock under `prefix`: a paged read pinned at one revision, then
// the time to live of every lease in it (at most `parallelLookups` at a time). Keys group into
// locks by `recipe` (LockTable).
void readLockSnapshot(Client& client, const std::string& prefix,
                      std::function<void(Result<LockMonitorState>)> done,
                      RecipeOverride recipe = RecipeOverride::Auto, int parallelLookups = 64);

} // namespace etcd
