#include "widgets/elided_key.h"

namespace lockscope {

QString elidedKey(const QFontMetrics& metrics, const QString& key, int width) {
    if (metrics.horizontalAdvance(key) <= width)
        return key;
    const qsizetype slash = key.lastIndexOf('/');
    if (slash < 0 || slash == key.size() - 1)
        return metrics.elidedText(key, Qt::ElideMiddle, width);
    const QString lastSegment = key.mid(slash);
    const int headWidth = width - metrics.horizontalAdvance(lastSegment);
    if (headWidth < metrics.horizontalAdvance(QStringLiteral("…")))
        return metrics.elidedText(key, Qt::ElideLeft, width);
    const QString head = metrics.elidedText(key.left(slash), Qt::ElideMiddle, headWidth);
    return (head.isEmpty() ? QStringLiteral("…") : head) + lastSegment;
}

} // namespace lockscope
