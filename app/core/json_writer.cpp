#include "app/core/json_writer.h"

#include "app/core/key_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>

namespace lockscope {

namespace {

// Whether displayKey(bytes) is `bytes` itself and JSON needs no escape in it either: printable
// ASCII without a backslash or a quote, as nearly every lock key is. Eight bytes at a time (a
// snapshot asks it of every key twice): a word has a byte below 0x20, above 0x7e, '"' or '\\'
// exactly when the bit tricks below set that byte's top bit.
bool plainText(std::string_view bytes) {
    constexpr uint64_t ones = 0x0101010101010101ull;
    constexpr uint64_t highs = 0x8080808080808080ull;
    const auto hasZero = [](uint64_t v) { return (v - ones) & ~v & highs; };
    std::size_t i = 0;
    const auto test = [&](uint64_t word) {
        const uint64_t below = (word - ones * 0x20) & ~word & highs;           // a byte < 0x20
        const uint64_t above = ((word + ones * (0x7f - 0x7e)) | word) & highs; // a byte > 0x7e
        return below | above | hasZero(word ^ (ones * '"')) | hasZero(word ^ (ones * '\\'));
    };
    for (; i + 8 <= bytes.size(); i += 8) {
        uint64_t word;
        std::memcpy(&word, bytes.data() + i, sizeof word);
        if (test(word))
            return false;
    }
    if (i == bytes.size())
        return true;
    // The last bytes in a word padded with a plain one ('a'): one more test, not a loop.
    uint64_t word = ones * 'a';
    std::memcpy(&word, bytes.data() + i, bytes.size() - i);
    return !test(word);
}

} // namespace

void JsonWriter::separate() {
    if (comma())
        out_ += ',';
}

bool JsonWriter::comma() {
    if (afterKey_) {
        afterKey_ = false;
        return false;
    }
    if (first_.empty())
        return false;
    const bool needed = !first_.back();
    first_.back() = false;
    return needed;
}

JsonWriter& JsonWriter::beginObject() {
    separate();
    out_ += '{';
    first_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    out_ += '}';
    first_.pop_back();
    spill();
    return *this;
}

void JsonWriter::spill() {
    constexpr std::size_t block = 1 << 16;
    if (sink_ && out_.size() >= block) {
        std::fwrite(out_.data(), 1, out_.size(), sink_);
        out_.clear();
    }
}

void JsonWriter::flush() {
    if (sink_) {
        std::fwrite(out_.data(), 1, out_.size(), sink_);
        out_.clear();
    }
}

JsonWriter& JsonWriter::beginArray() {
    separate();
    out_ += '[';
    first_.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    out_ += ']';
    first_.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    // A name as the code writes them ("lease"): comma, quotes, name and colon in one append.
    char piece[64];
    if (name.size() + 4 <= sizeof piece && plainText(name)) {
        char* at = piece;
        if (comma())
            *at++ = ',';
        *at++ = '"';
        at = std::copy(name.begin(), name.end(), at);
        *at++ = '"';
        *at++ = ':';
        out_.append(piece, static_cast<std::size_t>(at - piece));
    } else {
        separate();
        quoted(name);
        out_ += ':';
    }
    afterKey_ = true;
    return *this;
}

void JsonWriter::quoted(std::string_view head, std::string_view tail) {
    if (plainText(head) && plainText(tail)) { // as nearly every name and key: one append
        const std::size_t start = out_.size();
        out_.resize(start + head.size() + tail.size() + 2);
        char* at = out_.data() + start;
        *at++ = '"';
        at = std::copy(head.begin(), head.end(), at);
        at = std::copy(tail.begin(), tail.end(), at);
        *at = '"';
        return;
    }
    out_ += '"';
    for (const std::string_view text : {head, tail}) {
        // Runs of characters that need no escape are appended whole: a snapshot writes millions.
        std::size_t plain = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const auto c = static_cast<unsigned char>(text[i]);
            if (c >= 0x20 && c != '"' && c != '\\')
                continue;
            out_.append(text, plain, i - plain);
            plain = i + 1;
            switch (c) {
            case '"': out_ += "\\\""; break;
            case '\\': out_ += "\\\\"; break;
            case '\n': out_ += "\\n"; break;
            case '\r': out_ += "\\r"; break;
            case '\t': out_ += "\\t"; break;
            default: {
                static const char hex[] = "0123456789abcdef";
                const char escaped[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
                out_.append(escaped, sizeof escaped);
            }
            }
        }
        out_.append(text, plain, text.size() - plain);
    }
    out_ += '"';
}

JsonWriter& JsonWriter::value(std::string_view text) {
    separate();
    quoted(text);
    return *this;
}

JsonWriter& JsonWriter::value(int64_t number) {
    char text[24]; // a comma, "-9223372036854775808" and room to spare
    char* at = text;
    if (comma())
        *at++ = ',';
    out_.append(text, std::to_chars(at, text + sizeof text, number).ptr);
    return *this;
}

JsonWriter& JsonWriter::value(double number) {
    if (!std::isfinite(number))
        return null();
    separate();
    // to_chars, unlike printf, ignores LC_NUMERIC (which would write "1,500"). Room for the
    // largest double's 309 digits.
    char text[320];
    out_.append(text,
                std::to_chars(text, text + sizeof text, number, std::chars_format::fixed, 3).ptr);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
    separate();
    out_ += flag ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null() {
    separate();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::bytesField(std::string_view name, const std::string& bytes) {
    key(name);
    separate();
    if (plainText(bytes)) // displayKey would copy it unchanged: written as it is
        quoted(bytes);
    else
        quoted(displayKey(bytes));
    base64Field(name, bytes);
    return *this;
}

JsonWriter& JsonWriter::bytesField(std::string_view name, const std::string& bytes,
                                   std::string_view shown) {
    key(name).value(shown);
    base64Field(name, bytes);
    return *this;
}

void JsonWriter::base64Field(std::string_view name, std::string_view bytes) {
    separate();
    quoted(name, "_b64");
    out_ += ':';
    // RFC 4648 base64 with padding, written in place (QByteArray::toBase64's default form).
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const std::size_t start = out_.size();
    out_.resize(start + 2 + (bytes.size() + 2) / 3 * 4);
    char* at = out_.data() + start;
    *at++ = '"';
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const uint32_t triple = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16 |
                                static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1]))
                                    << 8 |
                                static_cast<unsigned char>(bytes[i + 2]);
        *at++ = digits[triple >> 18];
        *at++ = digits[(triple >> 12) & 0x3f];
        *at++ = digits[(triple >> 6) & 0x3f];
        *at++ = digits[triple & 0x3f];
    }
    if (const std::size_t rest = bytes.size() - i; rest > 0) {
        uint32_t triple = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
        if (rest == 2)
            triple |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
        *at++ = digits[triple >> 18];
        *at++ = digits[(triple >> 12) & 0x3f];
        *at++ = rest == 2 ? digits[(triple >> 6) & 0x3f] : '=';
        *at++ = '=';
    }
    *at = '"';
}

std::string isoTime(std::chrono::system_clock::time_point at) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch());
    const std::time_t seconds = static_cast<std::time_t>(ms.count() / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[96]; // room for any int the compiler imagines; real times take 24
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                  static_cast<int>(ms.count() % 1000));
    return text;
}

} // namespace lockscope
