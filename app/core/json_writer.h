#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace lockscope {

// Writes compact JSON text, the one writer of every JSON LockScope prints or saves. Integers are
// written exactly (lease IDs exceed a double's 53 bits, which QJsonDocument would round),
// fractions with a point and three decimals whatever the locale. Strings must be UTF-8 (see
// displayKey for etcd keys).
class JsonWriter {
public:
    JsonWriter() = default;
    // Writes to `sink` as it goes, a block at a time, rather than keeping the whole text: a
    // snapshot of a million keys is hundreds of MB of JSON. flush() writes the rest.
    explicit JsonWriter(std::FILE* sink)
        : sink_(sink) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(int64_t number);
    JsonWriter& value(double number);
    JsonWriter& value(bool flag);
    JsonWriter& null();
    // A field that holds bytes (a key, a lock name, a value): "name" gets displayKey(bytes),
    // readable and unambiguous, and "name_b64" the exact bytes in base64, for programs.
    JsonWriter& bytesField(std::string_view name, const std::string& bytes);
    // The same with `shown` as the text (displayValue for a value).
    JsonWriter& bytesField(std::string_view name, const std::string& bytes, std::string_view shown);

    // The text written (without a sink), or what a sink has not been given yet.
    const std::string& text() const { return out_; }
    void flush();

private:
    void separate();
    bool comma(); // whether the next item takes a comma before it (separate() without writing)
    // Appends `head` then `tail` as one JSON string, escaped, quotes included.
    void quoted(std::string_view head, std::string_view tail = {});
    // Appends "<name>_b64":"<bytes in base64>" (after separate()).
    void base64Field(std::string_view name, std::string_view bytes);
    void spill(); // gives the sink a full block
    std::FILE* sink_ = nullptr;
    std::string out_;
    std::vector<char> first_; // per open container: nothing written in it yet (a byte each)
    bool afterKey_ = false;
};

// A time as JSON, lines and exports write it: ISO 8601 in UTC with milliseconds
// ("2026-05-01T12:00:00.250Z").
std::string isoTime(std::chrono::system_clock::time_point at);

} // namespace lockscope
