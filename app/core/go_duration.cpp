#include "app/core/go_duration.h"

#include <QRegularExpression>
#include <cmath>

namespace lockscope {

namespace {

double unitInMilliseconds(QStringView unit) {
    if (unit == u"ns")
        return 1e-6;
    if (unit == u"us" || unit == u"µs")
        return 1e-3;
    if (unit == u"ms")
        return 1;
    if (unit == u"s")
        return 1e3;
    if (unit == u"m")
        return 60e3;
    return 3600e3; // "h": the pattern admits no other unit
}

} // namespace

std::optional<std::chrono::milliseconds> parseGoDuration(const QString& text) {
    static const QRegularExpression whole(
        QStringLiteral(R"(^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$)"));
    static const QRegularExpression part(
        QStringLiteral(R"((\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))"));
    const QString trimmed = text.trimmed();
    if (trimmed == u"0") // Go's one number without a unit
        return std::chrono::milliseconds(0);
    if (!whole.match(trimmed).hasMatch())
        return std::nullopt;
    double total = 0;
    for (const auto& match : part.globalMatch(trimmed))
        total += match.captured(1).toDouble() * unitInMilliseconds(match.capturedView(2));
    // A year is far beyond any sensible timeout; refusing more keeps the conversion exact.
    if (total > 365.0 * 24 * 3600e3)
        return std::nullopt;
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(total)));
}

} // namespace lockscope
