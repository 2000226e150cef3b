#include "app/core/event_words.h"

#include <QCoreApplication>

namespace lockscope {

namespace {

// The words' translation context.
struct EventWords {
    Q_DECLARE_TR_FUNCTIONS(EventWords)
};

// A queue whose first key (or first readers) holds: a mutex, an RWMutex, a single-key lock.
QString lockWord(EventCause cause) {
    switch (cause) {
    case EventCause::Enqueued: return EventWords::tr("enqueued");
    case EventCause::Acquired: return EventWords::tr("acquired");
    case EventCause::Released: return EventWords::tr("released");
    case EventCause::Cancelled: return EventWords::tr("cancelled");
    case EventCause::OwnCleanup: return EventWords::tr("our try withdrew");
    case EventCause::Expired: return EventWords::tr("expired");
    case EventCause::ForceReleased: return EventWords::tr("force-released");
    case EventCause::Lost: return EventWords::tr("lost");
    case EventCause::Proclaimed: return EventWords::tr("value changed");
    case EventCause::OutageBegan:
    case EventCause::OutageEnded: break; // the view's words: eventWord()
    }
    return {};
}

// An election: its first key leads; the others campaign.
QString electionWord(EventCause cause) {
    switch (cause) {
    case EventCause::Enqueued: return EventWords::tr("campaigning");
    case EventCause::Acquired: return EventWords::tr("elected");
    case EventCause::Released: return EventWords::tr("resigned");
    case EventCause::Cancelled: return EventWords::tr("withdrew");
    case EventCause::OwnCleanup: return EventWords::tr("our try withdrew");
    case EventCause::Expired: return EventWords::tr("leader expired");
    case EventCause::ForceReleased: return EventWords::tr("deposed by force");
    case EventCause::Lost: return EventWords::tr("lost leadership");
    case EventCause::Proclaimed: return EventWords::tr("proclaimed");
    case EventCause::OutageBegan:
    case EventCause::OutageEnded: break; // the view's words: eventWord()
    }
    return {};
}

// A key of no known recipe: nothing says it is a lock, so only what happened to the key.
QString keyWord(EventCause cause) {
    switch (cause) {
    case EventCause::Enqueued:
    case EventCause::Acquired: return EventWords::tr("key created");
    case EventCause::Released:
    case EventCause::Cancelled:
    case EventCause::OwnCleanup: return EventWords::tr("key deleted");
    case EventCause::Expired: return EventWords::tr("key's lease expired");
    case EventCause::ForceReleased: return EventWords::tr("key force-deleted");
    case EventCause::Lost: return EventWords::tr("key lost");
    case EventCause::Proclaimed: return EventWords::tr("value changed");
    case EventCause::OutageBegan:
    case EventCause::OutageEnded: break; // the view's words: eventWord()
    }
    return {};
}

} // namespace

EventCause eventCause(etcd::LockEventKind kind) {
    using Kind = etcd::LockEventKind;
    switch (kind) {
    case Kind::Enqueued: return EventCause::Enqueued;
    case Kind::Acquired: return EventCause::Acquired;
    case Kind::Released: return EventCause::Released;
    case Kind::Cancelled: return EventCause::Cancelled;
    case Kind::Expired: return EventCause::Expired;
    case Kind::ForceReleased: return EventCause::ForceReleased;
    case Kind::Lost: return EventCause::Lost;
    case Kind::Proclaimed: return EventCause::Proclaimed;
    }
    return EventCause::Released;
}

const char* eventCauseName(EventCause cause) {
    using Kind = etcd::LockEventKind;
    switch (cause) {
    case EventCause::Enqueued: return etcd::lockEventKindName(Kind::Enqueued);
    case EventCause::Acquired: return etcd::lockEventKindName(Kind::Acquired);
    case EventCause::Released: return etcd::lockEventKindName(Kind::Released);
    case EventCause::Cancelled: return etcd::lockEventKindName(Kind::Cancelled);
    case EventCause::OwnCleanup: return "own-cleanup";
    case EventCause::Expired: return etcd::lockEventKindName(Kind::Expired);
    case EventCause::ForceReleased: return etcd::lockEventKindName(Kind::ForceReleased);
    case EventCause::Lost: return etcd::lockEventKindName(Kind::Lost);
    case EventCause::Proclaimed: return etcd::lockEventKindName(Kind::Proclaimed);
    case EventCause::OutageBegan: return "stale";
    case EventCause::OutageEnded: return "resynced";
    }
    return "";
}

QStringList eventWords() {
    QStringList words;
    for (auto kind : {etcd::QueueKind::Mutex, etcd::QueueKind::Election, etcd::QueueKind::Unknown})
        for (int cause = 0; cause <= static_cast<int>(EventCause::OutageEnded); ++cause)
            words << eventWord(kind, static_cast<EventCause>(cause));
    return words;
}

QString eventWord(etcd::QueueKind kind, EventCause cause) {
    // The view's, whatever lock it is shown beside.
    if (cause == EventCause::OutageBegan)
        return EventWords::tr("stale");
    if (cause == EventCause::OutageEnded)
        return EventWords::tr("resynced");
    switch (kind) {
    case etcd::QueueKind::Election: return electionWord(cause);
    case etcd::QueueKind::Unknown: return keyWord(cause);
    case etcd::QueueKind::Mutex:
    case etcd::QueueKind::RwMutex:
    case etcd::QueueKind::SingleKey: return lockWord(cause);
    }
    return lockWord(cause);
}

} // namespace lockscope
