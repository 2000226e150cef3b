#pragma once

#include "kv.pb.h"

#include <string>
#include <vector>

namespace lockscope::bench {

// The watch events of a busy prefix, made up in memory: 100 locks under `prefix`, each a queue
// of two Go keys <lock>/<lease hex>; a round deletes a lock's holder (its waiter acquires) and
// puts a new waiter, so each round is two watch events and three lock events. Revisions rise
// from 2, one per event.
std::vector<mvccpb::Event> handoffWatch(const std::string& prefix, int rounds);

} // namespace lockscope::bench
