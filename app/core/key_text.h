#pragma once

#include <QString>
#include <cstddef>
#include <optional>
#include <string>

namespace lockscope {

// An etcd key (any bytes) as text that never mangles it: valid UTF-8 stays as it is, a
// backslash doubles, and every other byte (controls, invalid UTF-8) becomes \xNN.
std::string displayKey(const std::string& bytes);
// Printable ASCII without a backslash, as nearly every key is: displayKey() shows it byte for
// byte (valid UTF-8 beyond ASCII too, but only after a look at each sequence).
bool printableAsciiKey(const std::string& bytes);
// displayKey() as a QString, for models and messages.
QString displayKeyText(const std::string& bytes);

// A key's value as text: as it is when it is printable UTF-8 (no control characters), else
// "0x" and every byte in hex, so a binary value (python-etcd3's lock uuid) never shows as
// mis-decoded text.
std::string displayValue(const std::string& bytes);
QString displayValueText(const std::string& bytes);
// displayValueText cut for a line or a table cell: past ShortValueChars it ends with an
// ellipsis and the value's length, "… (1048576 byte(s))". JSON keeps values whole.
constexpr int ShortValueChars = 64;
QString shortValueText(const std::string& bytes);

// The other way: `\xNN` (two hex digits, either case) is that byte, `\\` is one backslash, and
// every other byte is itself, so raw non-UTF-8 bytes pass through unchanged. A backslash that
// starts neither escape is refused, with what was wrong and how to write it in `problem`.
// parseKeyText(displayKey(b)) == b for all bytes b.
std::optional<std::string> parseKeyText(const std::string& text, std::string& problem);

// The length of the valid UTF-8 sequence starting at s[i] (1 for ASCII), or 0 when there is
// none: a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, cut off.
std::size_t utf8SequenceLength(const std::string& s, std::size_t i);

} // namespace lockscope
