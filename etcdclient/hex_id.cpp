#include "etcdclient/hex_id.h"

namespace etcd {

std::string hexId(uint64_t id) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    do {
        out.insert(out.begin(), digits[id % 16]);
        id /= 16;
    } while (id);
    return out;
}

} // namespace etcd
