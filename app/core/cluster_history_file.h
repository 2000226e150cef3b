#pragma once

#include <QString>
#include <string>
#include <vector>

namespace lockscope {

// The name a recording gives the cluster at `endpoints` (its source's name in a store): the
// endpoints sorted and joined by commas, the same however they were given.
std::string clusterName(const std::vector<std::string>& endpoints);

// The desktop's recording of the cluster at `endpoints`: a file under the user's data folder,
// history/, named after clusterName() made safe for a file name (a long name is cut and ends in
// a hash of it). A sandbox records into history/sandbox.db, which each new sandbox begins again.
QString clusterHistoryPath(const std::vector<std::string>& endpoints);
QString sandboxHistoryPath();

} // namespace lockscope
