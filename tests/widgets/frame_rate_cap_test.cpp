// FrameRateCap on a window that counts its paints, offscreen.
#include "support/qtest_registry.h"
#include "widgets/frame_rate_cap.h"

#include <QElapsedTimer>
#include <QTest>
#include <QWidget>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

// Shows `value`; remembers what it last painted and how often it painted.
class PaintCounter : public QWidget {
public:
    PaintCounter() { resize(200, 100); }
    int value = 0;
    int painted = -1;
    int paints = 0;

protected:
    void paintEvent(QPaintEvent*) override {
        painted = value;
        ++paints;
    }
};

constexpr auto capInterval = 50ms;

void showAndSettle(PaintCounter& window) {
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTest::qWait(2 * capInterval.count()); // past the first paint's interval
}

// Changes the window's value every millisecond for `duration`, letting each change paint.
void changeContinuously(PaintCounter& window, std::chrono::milliseconds duration) {
    QElapsedTimer elapsed;
    elapsed.start();
    while (elapsed.elapsed() < duration.count()) {
        ++window.value;
        window.update();
        QCoreApplication::processEvents();
        QTest::qSleep(1);
    }
}

} // namespace

class FrameRateCapTest : public QObject {
    Q_OBJECT
private slots:
    void aChangeAfterAQuietSpellPaintsAtOnce() {
        PaintCounter window;
        new FrameRateCap(&window, capInterval);
        showAndSettle(window);
        const int before = window.paints;
        window.value = 7;
        window.update();
        QCoreApplication::processEvents();
        QCOMPARE(window.paints, before + 1);
        QCOMPARE(window.painted, 7);
    }

    void aStreamOfChangesPaintsAtMostOncePerInterval() {
        constexpr auto run = 500ms;
        const int mostPaints = int(run / capInterval) + 2;

        PaintCounter uncapped;
        showAndSettle(uncapped);
        const int uncappedBefore = uncapped.paints;
        changeContinuously(uncapped, run);
        // Without the cap every change paints: the cap is what the next figure shows.
        QVERIFY2(uncapped.paints - uncappedBefore > 3 * mostPaints,
                 qPrintable(QString::number(uncapped.paints - uncappedBefore)));

        PaintCounter capped;
        new FrameRateCap(&capped, capInterval);
        showAndSettle(capped);
        const int cappedBefore = capped.paints;
        changeContinuously(capped, run);
        const int cappedPaints = capped.paints - cappedBefore;
        QVERIFY2(cappedPaints >= 2 && cappedPaints <= mostPaints,
                 qPrintable(QString::number(cappedPaints)));
    }

    void theLastChangeHeldBackIsPainted() {
        PaintCounter window;
        new FrameRateCap(&window, capInterval);
        showAndSettle(window);
        window.value = 1;
        window.update();
        QCoreApplication::processEvents(); // paints at once, starting an interval
        QCOMPARE(window.painted, 1);
        window.value = 2;
        window.update();
        QCoreApplication::processEvents(); // held back
        QCOMPARE(window.painted, 1);
        QTRY_COMPARE_WITH_TIMEOUT(window.painted, 2, 10 * capInterval.count());
    }
};

LOCKSCOPE_QTEST_MAIN(FrameRateCapTest)
#include "frame_rate_cap_test.moc"
