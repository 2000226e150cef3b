#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QStringList>

namespace lockscope {

// Why a row is in the event log: the watch's kind of event, or what only this window knows:
// its only-if-free attempt deleted its own key after finding the lock held (OwnCleanup, seen by
// the watch as a waiter that left), or it proclaimed a new value as an election's leader.
enum class EventCause {
    Enqueued,
    Acquired,
    Released,
    Cancelled,
    OwnCleanup,
    Expired,
    ForceReleased,
    Lost,
    Proclaimed,
    // Not a lock's: the view stopped being live (what it shows is as of the last word from etcd),
    // and it was re-read and is live again (LockWatch::outageBegan, outageEnded).
    OutageBegan,
    OutageEnded // the last: eventWords() counts up to it
};

EventCause eventCause(etcd::LockEventKind kind);
// Stable English for exports: lockEventKindName()'s for the watch's kinds, else "own-cleanup",
// "proclaimed", or "stale" and "resynced" (as `lockscopectl watch --json` says them).
const char* eventCauseName(EventCause cause);

// The event log's word for `cause` in a lock of `kind`, translated: lock words for a queue whose
// first key holds, election words (campaigning, elected, resigned…) for an election, whose first
// key leads, and key words (created, deleted) for a key of no known recipe.
QString eventWord(etcd::QueueKind kind, EventCause cause);
// Every word eventWord() gives, to size a column that shows them whole.
QStringList eventWords();

} // namespace lockscope
