// ClockTicker: each tick's label is the time the tick stands for, whatever the span shown.
#include "support/qtest_registry.h"
#include "widgets/clock_ticker.h"

#include <QTest>
#include <cmath>

using namespace lockscope;

class ClockTickerTest : public QObject {
    Q_OBJECT
private slots:
    void eachLabelIsItsTicksTime_data() {
        QTest::addColumn<double>("seconds");
        // 10 s is where the date-time ticker stepped 2.5 s; 0.3 s steps under a second.
        for (const double seconds : {0.3, 4.0, 10.0, 12.0, 90.0, 600.0, 7200.0, 86400.0})
            QTest::newRow(qPrintable(QString::number(seconds))) << seconds;
    }
    void eachLabelIsItsTicksTime() {
        QFETCH(double, seconds);
        ClockTicker ticker;
        ticker.setDateTimeSpec(Qt::UTC);
        const double from = 1'795'000'000.25; // not on a whole second
        QVector<double> ticks, subTicks;
        QVector<QString> labels;
        ticker.generate(QCPRange(from, from + seconds), QLocale::c(), 'g', 6, ticks, &subTicks,
                        &labels);
        QVERIFY(ticks.size() >= 2);
        for (int i = 0; i < ticks.size(); ++i) {
            const QDateTime at = QDateTime::fromMSecsSinceEpoch(qRound64(ticks[i] * 1000), Qt::UTC);
            // Ticks under a second apart are labelled to the millisecond; others fall on whole
            // seconds, labelled to the second.
            const bool subSecond = seconds < 1;
            if (!subSecond)
                QCOMPARE(ticks[i], std::floor(ticks[i]));
            QCOMPARE(labels[i], at.toString(subSecond ? "hh:mm:ss.zzz" : "hh:mm:ss"));
        }
    }
};

LOCKSCOPE_QTEST_MAIN(ClockTickerTest)

#include "clock_ticker_test.moc"
