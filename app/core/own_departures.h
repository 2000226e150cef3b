#pragma once

#include "app/core/event_words.h"
#include "app/core/own_lock.h"
#include "etcdclient/locks/lock_types.h"

#include <QByteArray>
#include <QHash>
#include <vector>

namespace lockscope {

// Names the departures of our own keys by what only we know (the watch sees only a deletion).
// A deletion of a key of ours that we did not ask for is not a release: our paused lease
// expired (Expired), or someone took the lock from us (ForceReleased; only Lost when a re-read
// after a gap found it gone, where an expiry is as likely). One we asked for is a
// release even when the monitor took it for an expiry: our release revoked the lease, and the
// lease lookup saw it gone before the key's deletion. An only-if-free attempt that found the lock
// held deletes its own key: a waiter leaving (Cancelled), whose cause is our own cleanup.
// `ownLocks` holds each lock's last OwnLock, by its exact name. Returns each event's cause.
std::vector<EventCause> nameOwnDepartures(std::vector<etcd::LockEvent>& events,
                                          const QHash<QByteArray, OwnLock>& ownLocks);

} // namespace lockscope
