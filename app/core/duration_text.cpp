#include "app/core/duration_text.h"

#include <QCoreApplication>

namespace lockscope {

QString durationText(std::chrono::milliseconds duration) {
    const qint64 ms = std::max<qint64>(0, duration.count());
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60'000)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    const qint64 seconds = ms / 1000;
    if (seconds < 3600)
        return QStringLiteral("%1 min %2 s").arg(seconds / 60).arg(seconds % 60, 2, 10, QChar('0'));
    return QStringLiteral("%1 h %2 min")
        .arg(seconds / 3600)
        .arg(seconds / 60 % 60, 2, 10, QChar('0'));
}

QString durationText(std::chrono::milliseconds duration, bool atLeast) {
    const QString text = durationText(duration);
    return atLeast ? QCoreApplication::translate("lockscope::DurationText", "≥ %1").arg(text)
                   : text;
}

} // namespace lockscope
