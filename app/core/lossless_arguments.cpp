#include "app/core/lossless_arguments.h"

#include "app/core/key_text.h"

namespace lockscope {

namespace {

constexpr char16_t escapeBase = 0xdc00;

bool isEscapedByte(char16_t c) {
    return c >= escapeBase + 0x80 && c <= escapeBase + 0xff; // only bytes >= 0x80 are invalid
}

} // namespace

QStringList losslessArguments(int argc, const char* const* argv) {
    QStringList arguments;
    for (int a = 0; a < argc; ++a) {
        const std::string bytes = argv[a];
        QString text;
        for (std::size_t i = 0; i < bytes.size();) {
            if (const std::size_t n = utf8SequenceLength(bytes, i)) {
                text += QString::fromUtf8(bytes.data() + i, static_cast<qsizetype>(n));
                i += n;
            } else {
                text += QChar(
                    static_cast<char16_t>(escapeBase + static_cast<unsigned char>(bytes[i++])));
            }
        }
        arguments << text;
    }
    return arguments;
}

std::string argumentBytes(const QString& argument) {
    std::string bytes;
    qsizetype runStart = 0; // of text to encode as UTF-8
    const auto flushRun = [&](qsizetype end) {
        bytes += QStringView(argument).sliced(runStart, end - runStart).toUtf8().toStdString();
    };
    for (qsizetype i = 0; i < argument.size(); ++i) {
        const char16_t c = argument[i].unicode();
        const bool secondOfPair = i > 0 && QChar::isHighSurrogate(argument[i - 1].unicode());
        if (isEscapedByte(c) && !secondOfPair) {
            flushRun(i);
            bytes += static_cast<char>(c - escapeBase);
            runStart = i + 1;
        }
    }
    flushRun(argument.size());
    return bytes;
}

} // namespace lockscope
