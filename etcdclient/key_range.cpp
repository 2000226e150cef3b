#include "etcdclient/key_range.h"

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

} // namespace etcd
