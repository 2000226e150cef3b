#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <string>

namespace lockscope {

// Where a lock this window took by hand stands, as LockActions last learnt it. Waiting and Held
// are alive; Releasing is let go of but not yet confirmed by etcd (our key may still hold the
// lock); the others are how it ended: Released by us (etcd confirmed), Cancelled while waiting,
// NotAcquired (a try found it held, or etcd refused), or Lost: it was taken from us (the lease
// expired or was revoked, or the key was deleted) and we hold nothing any more. A candidacy in
// an election is one too: Held is leading, Waiting is campaigning.
struct OwnLock {
    enum class State { Waiting, Held, Releasing, Lost, Released, Cancelled, NotAcquired };

    State state = State::Waiting;
    std::string lock; // the lock's name, exact bytes
    QByteArray key;   // ours, once queued
    qint64 lease = 0;
    qint64 fencingToken = 0; // once held
    bool tryOnly = false;    // taken only if free, never waiting
    bool serverLock = false; // taken through etcd's Lock service
    bool candidacy = false;  // an election campaign: `proposal` is our value
    std::string proposal;
    bool paused = false; // keepalives stopped by hand: the lease is left to expire
    QString detail;      // why it was lost or not acquired, or that a wait is retrying
    QDateTime since;     // when it entered this state

    bool alive() const { return state == State::Waiting || state == State::Held; }
    // "waiting", "held", "releasing", "lost", "released", "cancelled", "not acquired"; a
    // candidacy's are "campaigning", "leading", "resigning", "lost", "resigned", "withdrawn",
    // "not elected"
    QString stateName() const;
    // One line for the holder card and the lock list: "Ours: lost at 08:31:02 — lease revoked"
    QString summary() const;
};

} // namespace lockscope
