#pragma once

#include "etcdclient/locks/lock_types.h"
#include "etcdclient/locks/mutex.h"

namespace etcd {

// The readers-writer lock of etcd's contrib/recipes (etcd 3.4's rwmutex.go), wire-compatible
// with it: a reader puts <name>/read/<UnixNano> and a writer <name>/write/<UnixNano>, empty, on
// the session's lease, with put-if-absent. A reader holds once no key under "<name>/write"
// created before its own is left (readers share); a writer once no key under "<name>/" created
// before its own is left. The recipe orders by mod revision and we by create revision: they are
// the same, as neither ever puts its key again.
//
// It is a Mutex on that layout, so it waits as ours does (the client's running watch of
// "<name>/", every blocker read once), not as the recipe (a fresh watch of the one latest
// blocker from an old revision, which etcd leaves to its 100 ms catch-up pass).

// The layout of a reader or writer (`mode` Read or Write) of lock `name` whose key carries
// `unique` (the recipe: the time it was made, in nanoseconds since the epoch).
LockLayout rwMutexLayout(const std::string& name, KeyMode mode, int64_t unique);

// A contender for lock `name`: Exclusive, a Go Mutex (Mutex::create); Read or Write, a reader or
// writer of the recipe, its key named after the time now.
std::shared_ptr<Mutex> createLock(Client& client, std::shared_ptr<Session> session,
                                  std::string name, KeyMode mode);

} // namespace etcd
