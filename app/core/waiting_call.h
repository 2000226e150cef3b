#pragma once

#include <QString>

namespace lockscope {

// Whether a gRPC method's call waits on the server for something other than the network: etcd's
// Lock service answers Lock.Lock once the lock is ours, and Election.Campaign once we lead. How
// long such a call takes is a wait for other clients, not a round trip.
bool waitsOnTheServer(const QString& method);

} // namespace lockscope
