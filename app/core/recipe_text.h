#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QString>

namespace lockscope {

// A lock recipe (etcd::QueueKind) in the window's words: "mutex", "election", "rwmutex",
// "single key", "unknown".
QString recipeWord(etcd::QueueKind recipe);
// Which clients write it and how their keys look, for a tooltip.
QString recipeDescription(etcd::QueueKind recipe);
// What a queue shows in place of its waiters when they hold no key.
QString invisibleWaitersText();

} // namespace lockscope
