#pragma once

#include <QColor>
#include <QList>
#include <QPen>
#include <QString>

namespace lockscope {

// The colours that mean something on the plots. Red is the alarm (two holders at once, a split
// brain) and nothing else: no series and no holder is drawn in a red, a crimson or a pink.
QColor alarmColor();

// The session picked on the Blockers page, wherever its keys are shown: amber, far from the
// alarm's red and from the blue of our own keys.
QColor pickedSessionColor();

// Plot series colours, each far from the others and from the alarm (seriesPalette_test measures
// it). A plot with more series than colours draws the next round dashed, then dotted, so no two
// legend entries look alike.
const QList<QColor>& seriesColors();
QPen seriesPen(int index);

// A lock holder's colour on the Timeline, stable for its key: spread over the hues between
// orange and violet, never the alarm's reds and pinks.
QColor holderColor(const QString& holder);

// How far apart two colours look: Euclidean RGB weighted by the mean red ("redmean"), a cheap
// approximation of perceived difference; up to about 765.
double colorDistance(const QColor& a, const QColor& b);

} // namespace lockscope
