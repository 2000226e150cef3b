#include "support/qtest_registry.h"
#include "widgets/holder_timeline.h"
#include "widgets/series_palette.h"

#include <QToolTip>
#include <QtTest>
#include <malloc.h>
#include <qcustomplot.h>
#ifdef __SANITIZE_ADDRESS__
// The sanitizer runtime's count (sanitizer/allocator_interface.h, not installed with g++ 12).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif

using lockscope::alarmColor;
using lockscope::holderColor;
using lockscope::HolderTimeline;

class HolderTimelineTest : public QObject {
    Q_OBJECT

private slots:
    void oneLanePerLockInFirstSeenOrder() {
        HolderTimeline timeline;
        timeline.setNow(1000);
        timeline.beginHold("/locks/b", {"k1"}, 990);
        timeline.beginHold("/locks/a", {"k2"}, 991);
        timeline.beginHold("/locks/b", {"k3"}, 995); // ends k1's hold on that lane
        QCOMPARE(timeline.lanes(), (QStringList{"/locks/b", "/locks/a"}));
        QCOMPARE(timeline.intervalCount(), 3);
    }

    void intervalsOlderThanTheWindowAreDropped() {
        HolderTimeline timeline;
        timeline.setWindowSeconds(60);
        timeline.setNow(100);
        for (int i = 0; i < 50; ++i) {
            timeline.beginHold("/l", {QString("k%1").arg(i)}, 100 + i);
            timeline.endHold("/l", 100.5 + i);
        }
        timeline.setNow(160);
        QCOMPARE(timeline.intervalCount(), 50);
        timeline.setNow(200); // now only holds that ended after t=140 remain
        QCOMPARE(timeline.intervalCount(), 10);
    }

    void anOpenHoldIsNeverDropped() {
        HolderTimeline timeline;
        timeline.setWindowSeconds(10);
        timeline.beginHold("/l", {"k"}, 0);
        timeline.setNow(1000);
        QCOMPARE(timeline.intervalCount(), 1);
    }

    // An hour at a steady rate takes no more memory than the last window's holds alone: the
    // room of the holds dropped off the front is not kept.
    void aSteadyLaneHoldsOnlyItsWindow() {
        constexpr double window = 300, rate = 50, hour = 3600;
        const QString keys[] = {"/l/a", "/l/b"}; // shared by every hold: no text allocated
        // AddressSanitizer's allocator replaces malloc's, whose counts then stay 0.
        const auto heapBytes = [] {
#ifdef __SANITIZE_ADDRESS__
            return static_cast<double>(__sanitizer_get_current_allocated_bytes());
#else
            const auto info = mallinfo2();
            return static_cast<double>(info.uordblks + info.hblkhd);
#endif
        };
        // The heap a timeline holds once fed holds from `from` to the hour.
        const auto heldAfter = [&](double from) {
            const double before = heapBytes();
            HolderTimeline timeline;
            timeline.setWindowSeconds(window);
            for (int i = 0; from + i / rate < hour; ++i) {
                const double at = from + i / rate;
                timeline.beginHold("/l", {keys[i % 2]}, at);
                if (i % static_cast<int>(rate) == 0)
                    timeline.setNow(at); // a redraw a second, which drops what left the window
            }
            timeline.setNow(hour);
            return heapBytes() - before;
        };
        const double steady = heldAfter(0);
        const double windowOnly = heldAfter(hour - window);
        QVERIFY2(steady < 1.2 * windowOnly,
                 qPrintable(QString("%1 bytes after an hour, %2 for the window alone")
                                .arg(steady)
                                .arg(windowOnly)));
    }

    void drawsEachHoldersBarsAndTheOverlaps() {
        HolderTimeline timeline;
        timeline.resize(800, 220);
        timeline.setWindowSeconds(60);
        const QStringList locks = {"/locks/deploy", "/locks/db-migrate", "/locks/cron"};
        for (int lane = 0; lane < locks.size(); ++lane) {
            double t = 1000 + lane * 3;
            for (int i = 0; t < 1058; ++i) {
                timeline.beginHold(locks[lane], {QString("holder-%1").arg(i % 5)}, t);
                t += 1.5 + (i * 7 + lane * 3) % 5;
                timeline.endHold(locks[lane], t);
                t += (i + lane) % 3 * 0.7;
            }
        }
        timeline.markOverlap("/locks/db-migrate", 1030, 1033.5);
        timeline.setNow(1060); // before showing: shown, it would follow today's clock
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QTest::qWait(50); // the queued replot

        const QImage image = timeline.grab().toImage();
        const QString dir = qEnvironmentVariable("LOCKSCOPE_ARTIFACTS_DIR", QT_TESTCASE_BUILDDIR);
        QDir().mkpath(dir);
        QVERIFY(image.save(dir + "/holder_timeline.png"));
        // Each holder's colour fills some of the plot, and the overlap's red shows.
        const auto pixelsOf = [&](const QColor& color) {
            int count = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    count += image.pixel(x, y) == color.rgb();
            return count;
        };
        for (int holder = 0; holder < 5; ++holder) {
            const QColor color = holderColor(QString("holder-%1").arg(holder));
            QVERIFY2(pixelsOf(color) > 200, qPrintable(QString("holder-%1").arg(holder)));
        }
        QVERIFY(pixelsOf(alarmColor()) > 50);
    }

    // Thousands of holds a lane, each thinner than a pixel: all kept, and the lanes filled.
    void manyShortHoldsAreKeptAndFillTheirLanes() {
        HolderTimeline timeline;
        timeline.resize(800, 220);
        timeline.setWindowSeconds(120);
        for (int i = 0; i < 20000; ++i) {
            const QString lock = QString("/locks/%1").arg(i % 10);
            timeline.beginHold(lock, {QString("k%1").arg(i)}, 1000 + i * 0.005);
            timeline.endHold(lock, 1000 + i * 0.005 + 0.004);
        }
        QCOMPARE(timeline.intervalCount(), 20000);
        timeline.setNow(1100);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QTest::qWait(50); // the queued replot
        const QImage image = timeline.grab().toImage();
        int coloured = 0; // neither white, grey nor black: bars
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                coloured += image.pixelColor(x, y).hsvSaturation() > 60;
        QVERIFY2(coloured > 5000, qPrintable(QString::number(coloured)));
    }

    // Marks may nest: a wide one ending where a thin one ends is still drawn.
    void nestedOverlapMarksAreEachDrawn() {
        HolderTimeline timeline;
        timeline.resize(800, 220);
        timeline.setWindowSeconds(60);
        timeline.beginHold("/l", {"k"}, 1000);
        timeline.endHold("/l", 1001);
        timeline.markOverlap("/l", 1049.999, 1050);
        timeline.markOverlap("/l", 1010, 1050);
        timeline.setNow(1060);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QTest::qWait(50); // the queued replot
        const QImage image = timeline.grab().toImage();
        int outline = 0; // the marks' 2 px pen
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                outline += image.pixel(x, y) == QColor(220, 20, 60).rgb();
        QVERIFY2(outline > 1000, qPrintable(QString::number(outline)));
    }

    void theSameKeyAgainKeepsItsOpenHold() {
        HolderTimeline timeline;
        timeline.setNow(1000);
        timeline.beginHold("/l", {"/l/a", "a", 7, true}, 990);
        timeline.beginHold("/l", {"/l/a", "a", 7, true}, 995); // the same hold, seen again
        QCOMPARE(timeline.intervalCount(), 1);
        timeline.beginHold("/l", {"/l/b", "b", 9}, 996);
        QCOMPARE(timeline.intervalCount(), 2);
    }

    // Hovering a bar tells its key, lease, fencing token, start, end and duration.
    void aBarsTooltipTellsTheWholeHold() {
        HolderTimeline timeline;
        timeline.resize(800, 220);
        timeline.setWindowSeconds(60);
        const double start = 1'700'000'000;
        timeline.beginHold("/locks/deploy", {"/locks/deploy/694d8f2a", "694d8f2a", 4242},
                           start + 10);
        timeline.endHold("/locks/deploy", start + 22.5);
        timeline.setNow(start + 30);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QTest::qWait(50); // the queued replot
        const QPoint middle = timeline.pointOf("/locks/deploy", start + 16);
        const QString text = timeline.toolTipAt(middle);
        const auto clock = [](double t) {
            return QDateTime::fromMSecsSinceEpoch(qint64(t * 1000)).toString("HH:mm:ss.zzz");
        };
        for (const QString& part :
             {QString("Lock: /locks/deploy"), QString("Key: /locks/deploy/694d8f2a"),
              QString("Lease: 694d8f2a"), QString("Fencing token: 4242"),
              "Start: " + clock(start + 10), "End: " + clock(start + 22.5),
              QString("Duration: 12.500 s")})
            QVERIFY2(text.contains(part), qPrintable(part + " not in: " + text));
        QVERIFY(!text.contains("before LockScope"));
        // Off the bar, in the idle time after it: nothing.
        QVERIFY(timeline.toolTipAt(timeline.pointOf("/locks/deploy", start + 27)).isEmpty());

        // The widget shows it as a tooltip when the pointer rests there.
        auto* plot = timeline.findChild<QCustomPlot*>();
        QHelpEvent help(QEvent::ToolTip, plot->mapFrom(&timeline, middle),
                        timeline.mapToGlobal(middle));
        QApplication::sendEvent(plot, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), text);
    }

    // More lanes than lines of text fit: every n-th lane is named, evenly, never two names on one
    // line; given the height, every lane is named again.
    void lanesTooManyToNameAreNamedEveryFew() {
        HolderTimeline timeline;
        timeline.resize(600, 200);
        const double start = 1'700'000'000;
        for (int lock = 0; lock < 100; ++lock)
            timeline.beginHold(QString("/locks/%1").arg(lock), {"k", "1", 1}, start + lock);
        timeline.setNow(start + 120);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        auto* plot = timeline.findChild<QCustomPlot*>();
        const auto names = [plot] {
            return qSharedPointerCast<QCPAxisTickerText>(plot->yAxis->ticker())->ticks();
        };
        QTRY_VERIFY(names().size() < 100);
        const QList<double> lanes = names().keys();
        QVERIFY(lanes.size() >= 2);
        const double step = lanes[1] - lanes[0];
        const double pixelsApart =
            std::abs(plot->yAxis->coordToPixel(lanes[1]) - plot->yAxis->coordToPixel(lanes[0]));
        QVERIFY2(pixelsApart >= QFontMetrics(plot->yAxis->tickLabelFont()).height(),
                 qPrintable(QString::number(pixelsApart)));
        for (int i = 1; i < lanes.size(); ++i)
            QCOMPARE(lanes[i] - lanes[i - 1], step);
        QCOMPARE(names().value(0), QString("/locks/0"));

        timeline.resize(600, 3000);
        QTRY_COMPARE(names().size(), 100);
    }

    // A hold already in progress when LockScope first looked: a lane from when it was first
    // seen, a faded left edge, and a tooltip that says its start is unknown.
    void aHoldSeenInProgressHasAnOpenLeftEdge() {
        HolderTimeline timeline;
        timeline.resize(800, 220);
        timeline.setWindowSeconds(60);
        const double start = 1'700'000'000;
        const HolderTimeline::Hold hold{"/locks/cron/77aa", "77aa", 12, true};
        timeline.beginHold("/locks/cron", hold, start + 20);
        timeline.setNow(start + 50);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QTest::qWait(50); // the queued replot
        QCOMPARE(timeline.lanes(), QStringList{"/locks/cron"});
        const QString text = timeline.toolTipAt(timeline.pointOf("/locks/cron", start + 40));
        QVERIFY2(text.contains("held since before LockScope started watching"), qPrintable(text));
        QVERIFY2(text.contains("Duration: at least 30.000 s"), qPrintable(text));
        QVERIFY2(text.contains("End: still held"), qPrintable(text));

        // Its left edge fades in: paler there than further right, where it is its full colour.
        const QImage image = timeline.grab().toImage();
        const QPoint left = timeline.pointOf("/locks/cron", start + 20) + QPoint(2, 0);
        const QPoint inside = timeline.pointOf("/locks/cron", start + 40);
        const QColor full = holderColor(hold.key);
        QCOMPARE(image.pixelColor(inside).rgb(), full.rgb());
        QVERIFY2(image.pixelColor(left).hsvSaturation() < full.hsvSaturation() / 2,
                 qPrintable(image.pixelColor(left).name()));
    }

    void holdersGetStableDistinctColours() {
        QCOMPARE(holderColor("/l/694d"), holderColor("/l/694d"));
        QVERIFY(holderColor("/l/694d") != holderColor("/l/694e"));
    }
};

LOCKSCOPE_QTEST_MAIN(HolderTimelineTest)
#include "holder_timeline_test.moc"
