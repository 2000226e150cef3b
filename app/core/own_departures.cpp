#include "app/core/own_departures.h"

namespace lockscope {

std::vector<EventCause> nameOwnDepartures(std::vector<etcd::LockEvent>& events,
                                          const QHash<QByteArray, OwnLock>& ownLocks) {
    std::vector<EventCause> causes;
    causes.reserve(events.size());
    for (etcd::LockEvent& event : events) {
        causes.push_back(eventCause(event.kind));
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
            causes.back() = eventCause(event.kind);
            continue;
        }
        if (own->tryOnly && event.kind == etcd::LockEventKind::Cancelled) {
            // Whether the attempt's answer came before this deletion or after it.
            causes.back() = EventCause::OwnCleanup;
            continue;
        }
        if (!(own->alive() || own->state == OwnLock::State::Lost))
            continue; // released or cancelled by us
        // Found gone by a re-read after a gap, our lease may as well have expired while we were
        // cut off as have been revoked: lost, nobody named as having taken it.
        event.kind = own->paused       ? etcd::LockEventKind::Expired
                     : event.recovered ? etcd::LockEventKind::Lost
                                       : etcd::LockEventKind::ForceReleased;
        causes.back() = eventCause(event.kind);
    }
    return causes;
}

} // namespace lockscope
