#include "etcdclient/key_range.h"

#include <algorithm>

namespace etcd {

std::string prefixRangeEnd(const std::string& prefix) {
    std::string end = prefix;
    while (!end.empty()) {
        auto& last = reinterpret_cast<unsigned char&>(end.back());
        if (last < 0xff) {
            ++last;
            return end;
        }
        end.pop_back();
    }
    return std::string(1, '\0');
}

std::string keyAfter(const std::string& key) {
    return key + '\0';
}

int64_t nextPageLimit(int64_t first, int64_t total) {
    return std::max(first, std::min(total / 10 + 1, MaxPageKeys));
}

} // namespace etcd
