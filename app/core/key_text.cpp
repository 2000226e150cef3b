#include "app/core/key_text.h"

namespace lockscope {

namespace {

// Length of the valid, printable UTF-8 sequence at `i`, or 0.
std::size_t utf8Length(const std::string& s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f)
        return 1;
    std::size_t length = 0;
    if (c >= 0xc2 && c <= 0xdf)
        length = 2;
    else if (c >= 0xe0 && c <= 0xef)
        length = 3;
    else if (c >= 0xf0 && c <= 0xf4)
        length = 4;
    if (length == 0 || i + length > s.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80)
            return 0;
    const auto c1 = static_cast<unsigned char>(s[i + 1]);
    if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f) || (c == 0xf0 && c1 < 0x90) ||
        (c == 0xf4 && c1 > 0x8f))
        return 0; // overlong, surrogate or beyond U+10FFFF
    return length;
}

} // namespace

std::string displayKey(const std::string& bytes) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        if (bytes[i] == '\\') {
            out += "\\\\";
            ++i;
            continue;
        }
        if (const std::size_t n = utf8Length(bytes, i)) {
            out.append(bytes, i, n);
            i += n;
            continue;
        }
        const auto c = static_cast<unsigned char>(bytes[i++]);
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 0xf];
    }
    return out;
}

} // namespace lockscope
