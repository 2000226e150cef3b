#include "support/qtest_registry.h"
#include "widgets/latency_plot.h"

#include <QDateTime>
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

    // Waits of minutes read in seconds, not in ms up to 150000.
    void aDurationAxisPast10SecondsReadsSeconds() {
        LatencyPlot plot;
        plot.resize(600, 300);
        plot.setDurationLabel("wait");
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        auto* customPlot = plot.findChild<QCustomPlot*>();
        const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
        plot.addPoint("wait", now - 2, 800);
        QTRY_COMPARE(plot.valueAxisLabel(), QString("wait (ms)"));
        customPlot->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(customPlot->graph(0)->data()->size(), 1);
        QCOMPARE(customPlot->graph(0)->data()->at(0)->value, 800.0);
        plot.addPoint("wait", now - 1, 150000);
        QTRY_COMPARE(plot.valueAxisLabel(), QString("wait (s)"));
        customPlot->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(customPlot->graph(0)->data()->size(), 2);
        QCOMPARE(customPlot->graph(0)->data()->at(1)->value, 150.0);
        QVERIFY(customPlot->yAxis->range().upper < 200);
        // A plain unit stays as it is, whatever the values.
        plot.setValueLabel("waiters");
        plot.addPoint("wait", now, 20000);
        QTRY_COMPARE(customPlot->yAxis->label(), QString("waiters"));
        QTest::qWait(3 * LatencyPlot::ReplotIntervalMs);
        QCOMPARE(customPlot->yAxis->label(), QString("waiters"));
    }

    // The legend sits above the plotted area, never on its lines; each series its own colour.
    void theLegendIsOutsideTheDataAndColoursAreDistinct() {
        LatencyPlot plot;
        plot.resize(600, 300);
        plot.setSeriesColor("b", QColor(0x94, 0x67, 0xbd));
        const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
        for (const char* series : {"a", "b", "c"})
            plot.addPoint(series, now, 5);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        auto* customPlot = plot.findChild<QCustomPlot*>();
        customPlot->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(customPlot->legend->visible());
        QVERIFY(customPlot->legend->outerRect().isValid());
        QVERIFY2(!customPlot->legend->outerRect().intersects(customPlot->axisRect()->rect()),
                 "the legend covers the plotted area");
        QCOMPARE(plot.seriesColor("b"), QColor(0x94, 0x67, 0xbd));
        QVERIFY(plot.seriesColor("a") != plot.seriesColor("c"));
        QVERIFY(plot.seriesColor("a") != plot.seriesColor("b"));
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

LOCKSCOPE_QTEST_MAIN(LatencyPlotTest)
#include "latency_plot_test.moc"
