// FrameRateCap on a window that counts its paints, offscreen.
#include "widgets/frame_rate_cap.h"

#include <QAbstractScrollArea>
#include <QElapsedTimer>
#include <QPaintEvent>
#include <QScrollBar>
#include <QTest>
#include <QWidget>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

// Counts the UpdateRequests a window receives, each sent or posted: the paints of one pass
// over a window's changes see the same count.
struct PassCounter : QObject {
    int passes = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        passes += event->type() == QEvent::UpdateRequest;
        return false;
    }
};
PassCounter* passCounter = nullptr;

// Shows `value`; remembers what it last painted, how often, and in which pass.
class PaintCounter : public QWidget {
public:
    explicit PaintCounter(QWidget* parent = nullptr)
        : QWidget(parent) {
        resize(200, 100);
    }
    int value = 0;
    int painted = -1;
    int paints = 0;
    int pass = -1;

protected:
    void paintEvent(QPaintEvent*) override {
        painted = value;
        ++paints;
        pass = passCounter ? passCounter->passes : -1;
    }
};

// A scroll area whose viewport does what PaintCounter does, and remembers what its last paint
// covered.
class PaintedArea : public QAbstractScrollArea {
public:
    explicit PaintedArea(QWidget* parent)
        : QAbstractScrollArea(parent) {
        setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
        verticalScrollBar()->setRange(0, 100);
    }
    int value = 0;
    int painted = -1;
    int paints = 0;
    int pass = -1;
    QRect covered;

protected:
    void paintEvent(QPaintEvent* event) override {
        painted = value;
        ++paints;
        pass = passCounter ? passCounter->passes : -1;
        covered = event->rect();
    }
    void scrollContentsBy(int dx, int dy) override { viewport()->scroll(dx, dy); }
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
    void initTestCase() {
        passCounter = new PassCounter;
        qApp->installEventFilter(passCounter);
    }

    // Two busy views painted apart: a frame that finds them changed leaves them, and each
    // paints in a pass of its own after it; one resized or scrolled since its last paint paints
    // whole in the next pass.
    void aBusyViewPaintsInAPassOfItsOwn() {
        PaintCounter window;
        window.resize(400, 200);
        PaintedArea first(&window);
        PaintedArea second(&window);
        first.setGeometry(0, 0, 200, 100);
        second.setGeometry(200, 0, 200, 100);
        auto* cap = new FrameRateCap(&window, capInterval);
        cap->paintApart(&first);
        cap->paintApart(&second);
        showAndSettle(window);
        QCOMPARE(first.painted, 0); // the first paints are never left
        QCOMPARE(second.painted, 0);

        first.value = second.value = window.value = 1;
        first.viewport()->update();
        second.viewport()->update();
        window.update(QRect(0, 150, 400, 50)); // the window's own, not its children's
        QTRY_COMPARE(first.painted, 1);
        QTRY_COMPARE(second.painted, 1);
        QCOMPARE(window.painted, 1);
        // The frame painted the window; the views came after it, each in its own pass.
        QVERIFY2(first.pass != second.pass && first.pass > window.pass && second.pass > window.pass,
                 qPrintable(QString("window %1, first %2, second %3")
                                .arg(window.pass)
                                .arg(first.pass)
                                .arg(second.pass)));

        first.value = second.value = window.value = 2;
        first.resize(190, 100); // its pixels are no longer what it shows
        second.viewport()->update();
        window.update(QRect(0, 150, 400, 50));
        QTRY_COMPARE(first.painted, 2);
        QTRY_COMPARE(second.painted, 2);
        QCOMPARE(window.painted, 2);
        QVERIFY2(first.pass == window.pass && second.pass > window.pass,
                 qPrintable(QString("window %1, first %2, second %3")
                                .arg(window.pass)
                                .arg(first.pass)
                                .arg(second.pass)));

        // A scroll moves the pixels it has (Qt paints only the strip it uncovered), and they may
        // be ones a frame left: the first pass after it paints the view whole. A frame counts
        // two requests (the one it holds, the one it sends), a turn one.
        QTest::qWait(3 * capInterval.count());
        const int before = first.paints;
        const int passesAtScroll = passCounter->passes;
        first.value = 3;
        first.verticalScrollBar()->setValue(10);
        QTRY_VERIFY(first.paints > before);
        QCOMPARE(first.painted, 3);
        QCOMPARE(first.covered, first.viewport()->rect());
        QVERIFY2(
            first.pass - passesAtScroll <= 2,
            qPrintable(QString("%1 requests after the scroll").arg(first.pass - passesAtScroll)));
    }

    // A round of turns posts no frame of its own: a change after a quiet spell still paints at
    // once.
    void aRoundLeavesNoFrameBehind() {
        PaintCounter window;
        window.resize(400, 200);
        PaintedArea busy(&window);
        auto* cap = new FrameRateCap(&window, capInterval);
        cap->paintApart(&busy);
        showAndSettle(window);
        busy.value = 1;
        busy.viewport()->update();
        QTRY_COMPARE(busy.painted, 1);
        const int passes = passCounter->passes;
        QTest::qWait(3 * capInterval.count());
        QCOMPARE(passCounter->passes, passes);
    }

    // Painted apart, a busy view still paints at most about once per interval.
    void aBusyViewStaysCapped() {
        PaintCounter window;
        window.resize(400, 200);
        PaintedArea busy(&window);
        auto* cap = new FrameRateCap(&window, capInterval);
        cap->paintApart(&busy);
        showAndSettle(window);
        const int before = busy.paints;
        QElapsedTimer elapsed;
        elapsed.start();
        while (elapsed.elapsed() < 500) {
            ++busy.value;
            busy.viewport()->update();
            QCoreApplication::processEvents();
            QTest::qSleep(1);
        }
        const auto run = std::chrono::milliseconds(elapsed.elapsed());
        QTRY_COMPARE(busy.painted, busy.value);
        const int paints = busy.paints - before;
        QVERIFY2(paints >= 2 && paints <= int(run / capInterval) + 3,
                 qPrintable(QString::number(paints)));
    }

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

QTEST_MAIN(FrameRateCapTest)
#include "frame_rate_cap_test.moc"
