#include "etcdclient/hex_id.h"

#include <charconv>

namespace etcd {

std::string hexId(uint64_t id) {
    char text[16]; // a 64-bit id is at most 16 hex digits; to_chars writes lowercase
    return std::string(text, std::to_chars(text, text + sizeof text, id, 16).ptr);
}

} // namespace etcd
