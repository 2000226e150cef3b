#pragma once

#include <string>

namespace etcd {

// The range_end that selects every key starting with `prefix`: the prefix with its last byte
// below 0xff incremented and what follows dropped; "\0" (all keys) when every byte is 0xff.
std::string prefixRangeEnd(const std::string& prefix);

// The smallest key greater than `key`, for paging a Range by key.
std::string keyAfter(const std::string& key);

} // namespace etcd
