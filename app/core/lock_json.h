#pragma once

#include "app/core/json_writer.h"
#include "etcdclient/locks/lock_types.h"

#include <string>

namespace lockscope {

// `lockscopectl snapshot --json`: {"revision", "locks": [{"name", "recipe", "recipe_assumed",
// "waiters_visible", "kind", "holder", "waiters"}], "anomalies"}; "recipe" is "mutex",
// "election", "rwmutex", "single-key" or "unknown" (etcd::QueueKind, docs/design.md §1c: an
// election's holder is its leader, its waiters the other candidates, each "value" a proposal),
// "recipe_assumed" says it was named by --recipe rather than detected, "waiters_visible" is
// false for a lock whose waiters hold no key (a single-key lock: its "waiters" are always
// empty, which does not mean nobody waits); "kind" repeats "recipe" for scripts written before
// it. A value is text when it is printable UTF-8, else "0x" and hex; a holder or waiter is
// {"key", "lease", "lease_hex", "create_revision", "mod_revision", "value", "ttl", "granted_ttl"}
// and a waiter adds "position" (its index in the queue: 1 = next behind a single holder) and
// "waits_for" (the key whose deletion it waits for). An rwmutex's keys add "mode" ("read" or
// "write"), "holder" is its first holder and "holders" lists every one (the leading readers, or
// the writer). Every name, key and value is written by JsonWriter::bytesField: the displayKey
// form plus a "*_b64" field with the exact bytes.
std::string lockStateJson(const etcd::LockMonitorState& state);
// The same into `json` (a writer to a file writes it as it goes).
void writeLockStateJson(const etcd::LockMonitorState& state, JsonWriter& json);

// One lock event as a JSON object, for `lockscopectl watch --json` (one per line): "event",
// "lock", "recipe" (the lock's), "key" (each with its "*_b64"), "lease", "lease_hex", "revision",
// "create_revision" (the key's: an acquired holder's fencing token), "observed_at", "waited_ms"
// (null when unknown: a single-key lock's waiters are not visible), "held_ms", "recovered",
// "at_least" (the wait or hold began before we saw the key: waited_ms or held_ms is a lower bound).
std::string lockEventJson(const etcd::LockEvent& event);
// The same with another "event" name: what the window's event log knew better (event_words.h).
std::string lockEventJson(const etcd::LockEvent& event, const char* eventName);

// One lock event as a line of text.
std::string lockEventLine(const etcd::LockEvent& event);

} // namespace lockscope
