#pragma once

#include "etcdclient/locks/lock_types.h"
#include "etcdclient/locks/wait_for_graph.h"
#include "widgets/stage_scene.h"

#include <QByteArray>
#include <QHash>

namespace lockscope {

// The stage's scene of a lock monitor's state: a lane per lock in name order (at most
// `maxLanes`, the rest counted), each key a token with its fencing token (create revision), its
// lease's last hex digits and when its lease runs out as last looked up. `ownKeys` are the keys
// this window holds or waits with, each saying whether its keepalives are paused; `picked`'s
// keys are marked (the session picked on the Blockers page).
StageScene stageSceneOf(const etcd::LockMonitorState& state, const QHash<QByteArray, bool>& ownKeys,
                        int maxLanes, const std::optional<etcd::SessionId>& picked = std::nullopt);

// "…4e5f" for a lease whose id in hex ends so; empty for no lease.
QString shortLease(int64_t lease);

} // namespace lockscope
