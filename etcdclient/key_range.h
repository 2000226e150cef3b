#pragma once

#include <cstdint>
#include <string>

namespace etcd {

// The range_end that selects every key starting with `prefix`: the prefix with its last byte
// below 0xff incremented and what follows dropped; "\0" (all keys) when every byte is 0xff.
std::string prefixRangeEnd(const std::string& prefix);

// The smallest key greater than `key`, for paging a Range by key.
std::string keyAfter(const std::string& key);

// The limit of each later page of a paged Range of `total` keys, its first page having asked
// for `first`. etcd 3.4 walks its index over the whole rest of the range on every page (to
// count it), so N keys in pages of P cost it about N * N / 2P: pages grow so that the rest comes
// in about ten, up to MaxPageKeys (a few MB of lock keys, far below a client's receive limit).
constexpr int64_t MaxPageKeys = 200000;
int64_t nextPageLimit(int64_t first, int64_t total);

} // namespace etcd
