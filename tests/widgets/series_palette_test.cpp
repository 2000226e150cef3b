// The plots' palette: distinct series colours, none near the alarm's red; holder colours that
// are never red or pink; a TTL running low and the picked session's mark are not red either.
#include "support/qtest_registry.h"
#include "widgets/series_palette.h"
#include "widgets/ttl_countdown_delegate.h"

#include <QTest>

using namespace lockscope;

namespace {

// Closer than this, two small legend swatches are easily taken for each other.
constexpr double Distinct = 100;
// Holder bars are wide fills: they need less, but never the alarm's look.
constexpr double AwayFromAlarm = 150;

} // namespace

class SeriesPaletteTest : public QObject {
    Q_OBJECT
private slots:
    void seriesColorsAreDistinctAndNoneIsTheAlarms() {
        const QList<QColor>& colors = seriesColors();
        QVERIFY(colors.size() >= 8);
        for (int i = 0; i < colors.size(); ++i) {
            QVERIFY2(colorDistance(colors[i], alarmColor()) >= AwayFromAlarm,
                     qPrintable(colors[i].name()));
            for (int j = i + 1; j < colors.size(); ++j)
                QVERIFY2(colorDistance(colors[i], colors[j]) >= Distinct,
                         qPrintable(colors[i].name() + " ~ " + colors[j].name()));
        }
    }

    // Past the palette, the colours come again with another line style: no two pens alike.
    void noTwoSeriesPensAlike() {
        const int count = 3 * static_cast<int>(seriesColors().size());
        for (int i = 0; i < count; ++i)
            for (int j = i + 1; j < count; ++j) {
                const QPen a = seriesPen(i);
                const QPen b = seriesPen(j);
                QVERIFY2(a.color() != b.color() || a.style() != b.style(),
                         qPrintable(QString("%1 and %2").arg(i).arg(j)));
            }
    }

    void holderColorsAreNeverRedNorPink() {
        for (int i = 0; i < 5000; ++i) {
            const QColor color = holderColor(QString("/locks/job/%1").arg(i, 0, 16));
            const int hue = color.hsvHue();
            QVERIFY2(hue >= 30 && hue <= 280, qPrintable(QString::number(hue)));
            QVERIFY2(colorDistance(color, alarmColor()) >= AwayFromAlarm, qPrintable(color.name()));
        }
    }

    void lowTtlAndThePickedSessionAreNotTheAlarm() {
        for (const QColor& color : {TtlCountdownDelegate::fillColor(true),
                                    TtlCountdownDelegate::edgeColor(true), pickedSessionColor()})
            QVERIFY2(colorDistance(color, alarmColor()) >= Distinct, qPrintable(color.name()));
        // The mark must not read as a TTL running low.
        QVERIFY(colorDistance(pickedSessionColor(), TtlCountdownDelegate::edgeColor(true)) >=
                Distinct);
    }
};

LOCKSCOPE_QTEST_MAIN(SeriesPaletteTest)
#include "series_palette_test.moc"
