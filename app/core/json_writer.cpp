#include "app/core/json_writer.h"

#include "app/core/key_text.h"

#include <QByteArray>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace lockscope {

void JsonWriter::separate() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back())
            out_ += ',';
        first_.back() = false;
    }
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
    value(name);
    out_ += ':';
    afterKey_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    separate();
    out_ += '"';
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
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out_ += escaped;
        }
        }
    }
    out_.append(text, plain, text.size() - plain);
    out_ += '"';
    return *this;
}

JsonWriter& JsonWriter::value(int64_t number) {
    separate();
    out_ += std::to_string(number);
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

JsonWriter& JsonWriter::bytesField(const std::string& name, const std::string& bytes) {
    return bytesField(name, bytes, displayKey(bytes));
}

JsonWriter& JsonWriter::bytesField(const std::string& name, const std::string& bytes,
                                   const std::string& shown) {
    key(name).value(shown);
    const QByteArray base64 =
        QByteArray::fromRawData(bytes.data(), static_cast<qsizetype>(bytes.size())).toBase64();
    return key(name + "_b64")
        .value(std::string_view(base64.constData(), static_cast<std::size_t>(base64.size())));
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
