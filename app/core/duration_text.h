#pragma once

#include <QString>
#include <chrono>

namespace lockscope {

// A duration as a person reads it: "850 ms", "12.3 s", "4 min 05 s", "2 h 03 min".
QString durationText(std::chrono::milliseconds duration);
// The same as a lower bound, "≥ 12.3 s", when `atLeast`: a time that began before LockScope saw
// it (etcd keeps no time of creation).
QString durationText(std::chrono::milliseconds duration, bool atLeast);

} // namespace lockscope
