#include "widgets/series_palette.h"

#include <QHash>
#include <cmath>

namespace lockscope {

QColor pickedSessionColor() {
    return QColor(0xff, 0xb3, 0x00);
}

QColor alarmColor() {
    return QColor(220, 20, 60);
}

const QList<QColor>& seriesColors() {
    // Tableau's ten without its red and pink, with a navy and a dark green in their place.
    static const QList<QColor> colors = {QColor(0x1f, 0x77, 0xb4), QColor(0x2c, 0xa0, 0x2c),
                                         QColor(0xff, 0x7f, 0x0e), QColor(0x94, 0x67, 0xbd),
                                         QColor(0x8c, 0x56, 0x4b), QColor(0x17, 0xbe, 0xcf),
                                         QColor(0xbc, 0xbd, 0x22), QColor(0x7f, 0x7f, 0x7f),
                                         QColor(0x1a, 0x23, 0x7e), QColor(0x1b, 0x5e, 0x20)};
    return colors;
}

QPen seriesPen(int index) {
    const QList<QColor>& colors = seriesColors();
    static constexpr Qt::PenStyle rounds[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                              Qt::DashDotLine};
    const auto count = static_cast<int>(colors.size());
    QPen pen(colors.at(index % count));
    pen.setStyle(rounds[(index / count) % std::size(rounds)]);
    return pen;
}

QColor holderColor(const QString& holder) {
    // Similar keys hash to nearby values: spread them (Knuth's multiplicative hash) so that
    // neighbouring holders get clearly different hues, from orange (30) to violet (280).
    const auto spread = static_cast<quint32>(qHash(holder)) * 2654435761u;
    return QColor::fromHsv(30 + static_cast<int>(spread % 251), 150, 215);
}

double colorDistance(const QColor& a, const QColor& b) {
    const double meanRed = (a.red() + b.red()) / 2.0;
    const double red = a.red() - b.red();
    const double green = a.green() - b.green();
    const double blue = a.blue() - b.blue();
    return std::sqrt((2 + meanRed / 256) * red * red + 4 * green * green +
                     (2 + (255 - meanRed) / 256) * blue * blue);
}

} // namespace lockscope
