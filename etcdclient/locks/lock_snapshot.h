#pragma once

#include "etcdclient/client.h"
#include "etcdclient/locks/lock_monitor.h"

#include <functional>
#include <string>

namespace etcd {

// One consistent look at every lock under `prefix`: a paged read pinned at one revision, then
// the time to live of every lease in it (at most `parallelLookups` at a time, asked for while
// the keys are grouped). Keys group into
// locks by `recipe` (LockTable). With `revision`, the locks as they were then, while etcd has
// not compacted it away: no lease is looked up (a TTL now says nothing of then), and the
// state's revision is that one.
void readLockSnapshot(Client& client, const std::string& prefix,
                      std::function<void(Result<LockMonitorState>)> done,
                      RecipeOverride recipe = RecipeOverride::Auto, int64_t revision = 0,
                      int parallelLookups = 64);

} // namespace etcd
