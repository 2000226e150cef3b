#pragma once

#include <string>

namespace lockscope {

// An etcd key (any bytes) as text that never mangles it: valid UTF-8 stays as it is, a
// backslash doubles, and every other byte (controls, invalid UTF-8) becomes \xNN.
std::string displayKey(const std::string& bytes);

} // namespace lockscope
