#include "widgets/latency_plot.h"

#include <QElapsedTimer>
#include <QTest>
#include <qcustomplot.h>

using namespace lockscope;

class LatencyPlotTest : public QObject {
    Q_OBJECT
private slots:
    void keepsOnlyTheHistoryOfEachSeries() {
        LatencyPlot plot;
        plot.setHistorySeconds(10);
        const double start = 1.7e9;
        for (int i = 0; i <= 1000; ++i) { // 100 s at 10 points a second
            plot.addPoint("KV.Range", start + i * 0.1, i % 7);
            if (i % 2 == 0)
                plot.addPoint("Maintenance.Status", start + i * 0.1, 1.0);
        }
        QCOMPARE(plot.seriesNames(), QStringList({"KV.Range", "Maintenance.Status"}));
        // The last 10 s: about 100 of the 1001 points, and 50 of the 501.
        QVERIFY2(plot.pointCount("KV.Range") >= 99 && plot.pointCount("KV.Range") <= 101,
                 qPrintable(QString::number(plot.pointCount("KV.Range"))));
        QVERIFY(plot.pointCount("Maintenance.Status") >= 49 &&
                plot.pointCount("Maintenance.Status") <= 51);
        QCOMPARE(plot.pointCount("nonexistent"), 0);

        plot.setHistorySeconds(2);
        QVERIFY(plot.pointCount("KV.Range") <= 21);
    }

    void drawsADayDecimatedAndZoomedInExactly() {
        LatencyPlot plot;
        plot.resize(600, 300);
        plot.setWindowSeconds(LatencyPlot::DaySeconds);
        const double start = 1.7e9;
        for (int i = 0; i < 200000; ++i) // 20,000 s at 10 Hz
            plot.addPoint("KV.Range", start + i * 0.1, i % 13);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        auto* customPlot = plot.findChild<QCustomPlot*>();
        QVERIFY(customPlot);
        customPlot->replot(QCustomPlot::rpImmediateRefresh);
        const int columns = customPlot->axisRect()->width();
        // All of it in view: per pixel column its lowest and highest point, all kept.
        QVERIFY2(customPlot->graph(0)->data()->size() <= 2 * columns + 2,
                 qPrintable(QString::number(customPlot->graph(0)->data()->size())));
        QCOMPARE(plot.pointCount("KV.Range"), 200000);
        // Zoomed in to 10 s: each of its 100 points, and one on either side.
        plot.setPaused(true);
        customPlot->xAxis->setRange(start + 100.05, start + 110.05);
        customPlot->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(customPlot->graph(0)->data()->size(), 102);
    }

    void replotsAreCoalesced() {
        LatencyPlot plot;
        plot.resize(600, 300);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        auto* customPlot = plot.findChild<QCustomPlot*>();
        QVERIFY(customPlot);
        QTest::qWait(100); // let the first, empty, draw happen
        int replots = 0;
        connect(customPlot, &QCustomPlot::afterReplot, this, [&] { ++replots; });

        // A burst: a thousand points, one redraw.
        const double start = 1.7e9;
        for (int i = 0; i < 1000; ++i)
            plot.addPoint("KV.Put", start + i * 0.001, 2.0);
        QTRY_COMPARE(replots, 1);
        QTest::qWait(3 * LatencyPlot::ReplotIntervalMs);
        QCOMPARE(replots, 1);

        // A steady stream for 400 ms, a point about every millisecond: no more than ~30 Hz.
        replots = 0;
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; clock.elapsed() < 400; ++i) {
            plot.addPoint("KV.Put", start + 1 + i * 0.001, 3.0);
            QTest::qWait(1);
        }
        QTest::qWait(3 * LatencyPlot::ReplotIntervalMs);
        const int ceiling = int(clock.elapsed() / LatencyPlot::ReplotIntervalMs) + 2;
        QVERIFY2(replots >= 2 && replots <= ceiling,
                 qPrintable(QString("%1 replots, at most %2 expected").arg(replots).arg(ceiling)));
    }
};

QTEST_MAIN(LatencyPlotTest)
#include "latency_plot_test.moc"
