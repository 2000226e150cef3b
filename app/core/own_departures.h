#pragma once

#include "app/core/own_lock.h"
#include "etcdclient/locks/lock_types.h"

#include <QByteArray>
#include <QHash>
#include <vector>

namespace lockscope {

// Names the departures of our own keys by what only we know (the watch sees only a deletion).
// A deletion of a key of ours that we did not ask for is not a release: our paused lease
// expired (Expired), or someone took the lock from us (ForceReleased). One we asked for is a
// release even when the monitor took it for an expiry: our release revoked the lease, and the
// lease lookup saw it gone before the key's deletion. `ownLocks` holds each lock's last OwnLock,
// by its exact name.
void nameOwnDepartures(std::vector<etcd::LockEvent>& events,
                       const QHash<QByteArray, OwnLock>& ownLocks);

} // namespace lockscope
