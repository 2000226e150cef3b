#pragma once

#include "etcdclient/mutex.h"
#include "etcdclient/session.h"

#include <memory>

namespace lockscope::bench {

// Waiting forms of the asynchronous Session and Mutex calls, for the figures' set-up steps.
std::shared_ptr<etcd::Session> openSession(etcd::Client& client);
void lockNow(etcd::Mutex& mutex);
void unlockNow(etcd::Mutex& mutex);

} // namespace lockscope::bench
