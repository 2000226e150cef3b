#include "app/core/key_text.h"

#include <QCoreApplication>
#include <algorithm>

namespace lockscope {

namespace {

int hexDigit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

std::size_t utf8SequenceLength(const std::string& s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80)
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

bool printableAsciiKey(const std::string& bytes) {
    return std::all_of(bytes.begin(), bytes.end(),
                       [](char c) { return c >= 0x20 && c < 0x7f && c != '\\'; });
}

std::string displayKey(const std::string& bytes) {
    if (printableAsciiKey(bytes))
        return bytes;
    static const char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t i = 0; i < bytes.size();) {
        if (bytes[i] == '\\') {
            out += "\\\\";
            ++i;
            continue;
        }
        const auto c = static_cast<unsigned char>(bytes[i]);
        const bool control = c < 0x20 || c == 0x7f;
        if (const std::size_t n = control ? 0 : utf8SequenceLength(bytes, i)) {
            out.append(bytes, i, n);
            i += n;
            continue;
        }
        ++i;
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 0xf];
    }
    return out;
}

QString displayKeyText(const std::string& bytes) {
    return QString::fromStdString(displayKey(bytes));
}

std::string displayValue(const std::string& bytes) {
    bool printable = true;
    for (std::size_t i = 0; i < bytes.size() && printable;) {
        const std::size_t length = utf8SequenceLength(bytes, i);
        const auto first = static_cast<unsigned char>(bytes[i]);
        // C0 controls and DEL; C1 controls are U+0080..U+009F, encoded 0xC2 0x80..0x9F.
        printable = length > 0 && first >= 0x20 && first != 0x7f &&
                    !(first == 0xc2 && static_cast<unsigned char>(bytes[i + 1]) < 0xa0);
        i += length;
    }
    if (printable)
        return bytes;
    static const char digits[] = "0123456789abcdef";
    std::string hex = "0x";
    hex.reserve(2 + 2 * bytes.size());
    for (unsigned char c : bytes) {
        hex += digits[c >> 4];
        hex += digits[c & 0xf];
    }
    return hex;
}

QString displayValueText(const std::string& bytes) {
    return QString::fromStdString(displayValue(bytes));
}

QString shortValueText(const std::string& bytes) {
    // Only the head is converted (text or hex, as its head is): a megabyte value costs no
    // megabyte of text. Cut before a UTF-8 continuation byte, so text stays text.
    std::size_t head = std::min<std::size_t>(bytes.size(), 4 * ShortValueChars);
    while (head < bytes.size() && head > 0 &&
           (static_cast<unsigned char>(bytes[head]) & 0xc0) == 0x80)
        --head;
    QString text = displayValueText(bytes.substr(0, head));
    if (head == bytes.size() && text.size() <= ShortValueChars)
        return displayValueText(bytes);
    text.truncate(ShortValueChars);
    const int length = static_cast<int>(bytes.size()); // a cast in the call hides it from lupdate
    return QCoreApplication::translate("KeyText", "%1… (%n byte(s))", nullptr, length).arg(text);
}

std::optional<std::string> parseKeyText(const std::string& text, std::string& problem) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (i + 1 < text.size() && text[i + 1] == '\\') {
            out += '\\';
            ++i;
            continue;
        }
        const bool hexEscape = i + 1 < text.size() && text[i + 1] == 'x';
        const int high = i + 2 < text.size() ? hexDigit(text[i + 2]) : -1;
        const int low = i + 3 < text.size() ? hexDigit(text[i + 3]) : -1;
        if (hexEscape && high >= 0 && low >= 0) {
            out += static_cast<char>(high * 16 + low);
            i += 3;
            continue;
        }
        // What follows the backslash, as far as an escape would reach.
        const std::string rest = text.substr(i + 1, hexEscape ? 3 : 1);
        problem = QCoreApplication::translate("KeyText", "bad escape \"\\%1\" at byte %2: write "
                                                         "\\xNN (two hex digits) for a byte or "
                                                         "\\\\ for a backslash")
                      .arg(QString::fromStdString(displayKey(rest)), QString::number(i + 1))
                      .toStdString();
        return std::nullopt;
    }
    return out;
}

} // namespace lockscope
