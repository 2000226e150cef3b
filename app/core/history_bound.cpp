#include "app/core/history_bound.h"

#include <QDateTime>

namespace lockscope {

bool readHistoryBound(const QString& text, std::optional<int64_t>& revision,
                      std::optional<std::chrono::system_clock::time_point>& time) {
    bool isNumber = false;
    const qlonglong number = text.toLongLong(&isNumber);
    if (isNumber) {
        revision = number;
        return number >= 0;
    }
    QDateTime at = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!at.isValid())
        return false;
    if (at.timeSpec() == Qt::LocalTime)
        at.setTimeSpec(Qt::UTC);
    time = std::chrono::system_clock::time_point(std::chrono::milliseconds(at.toMSecsSinceEpoch()));
    return true;
}

} // namespace lockscope
