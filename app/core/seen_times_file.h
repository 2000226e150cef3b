#pragma once

#include "etcdclient/locks/lock_table.h"

#include <QString>
#include <string>
#include <vector>

namespace lockscope {

// What this machine saw of a cluster's lock keys' times (etcd::SeenTimes), kept between runs in
// a file per cluster under the user's data folder: etcd keeps no times, so without it "Held for"
// starts over as "at least" after a restart or a new connection to the same cluster.

// The file of the cluster at `endpoints` (the same endpoints in any order: the same file).
QString seenTimesPath(const std::vector<std::string>& endpoints);
// Nothing when the file is missing, unreadable, of another format or damaged: the times are a
// help, never worth a message.
etcd::SeenTimesByKey readSeenTimes(const QString& path);
// Whole or not at all (QSaveFile); false when it could not be written.
bool writeSeenTimes(const QString& path, const etcd::SeenTimesByKey& times);

} // namespace lockscope
