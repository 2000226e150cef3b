#include "app/core/own_departures.h"

namespace lockscope {

void nameOwnDepartures(std::vector<etcd::LockEvent>& events,
                       const QHash<QByteArray, OwnLock>& ownLocks) {
    if (ownLocks.isEmpty())
        return;
    for (etcd::LockEvent& event : events) {
        const bool departed = event.kind == etcd::LockEventKind::Released ||
                              event.kind == etcd::LockEventKind::Cancelled;
        if (!departed && event.kind != etcd::LockEventKind::Expired)
            continue;
        const auto own = ownLocks.constFind(QByteArray::fromStdString(event.lock));
        if (own == ownLocks.constEnd() || own->key.toStdString() != event.key)
            continue; // not ours
        if (!departed) {
            // Our release revoked the lease, and the monitor's lease lookup saw it gone before
            // the key's deletion: that is the release we asked for, not an expiry.
            if (own->state == OwnLock::State::Releasing || own->state == OwnLock::State::Released)
                event.kind = etcd::LockEventKind::Released;
            continue;
        }
        if (!(own->alive() || own->state == OwnLock::State::Lost))
            continue; // released or cancelled by us
        event.kind =
            own->paused ? etcd::LockEventKind::Expired : etcd::LockEventKind::ForceReleased;
    }
}

} // namespace lockscope
