// SteadyTabWidget against QTabWidget, offscreen: what a page's new size hint repaints, and
// that tab bars and pages still get the room they ask for.
#include "widgets/steady_tab_widget.h"

#include <QLabel>
#include <QPaintEvent>
#include <QTabBar>
#include <QTest>
#include <QVBoxLayout>

using namespace lockscope;

namespace {

// The area of each paint event a widget receives.
struct PaintedAreas : QObject {
    std::vector<int> areas;
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            const QRect r = static_cast<QPaintEvent*>(event)->rect();
            areas.push_back(r.width() * r.height());
        }
        return false;
    }
};

// A window of `tabs` with one page: a label whose text changes (its size hint with it) and a
// big area beside it.
struct Window {
    QWidget window;
    QLabel* label = new QLabel("short");
    QWidget* page = new QWidget;

    explicit Window(QTabWidget* tabs) {
        auto* layout = new QVBoxLayout(page);
        layout->addWidget(label);
        layout->addWidget(new QLabel("the rest of the page"), 1);
        tabs->addTab(page, "Locks");
        (new QVBoxLayout(&window))->addWidget(tabs);
        window.resize(600, 400);
        window.show();
    }
};

// The largest area the tab widget repainted while a label's text grew, once the window had
// settled.
int largestRepaintAsALabelGrows(QTabWidget* tabs) {
    Window w(tabs);
    if (!QTest::qWaitForWindowExposed(&w.window))
        return -1;
    QCoreApplication::processEvents();
    PaintedAreas painted;
    tabs->installEventFilter(&painted);
    for (int i = 1; i <= 5; ++i) {
        w.label->setText(QString(i * 10, 'x'));
        QTest::qWait(20); // the platform's next frame
    }
    int largest = 0;
    for (int area : painted.areas)
        largest = std::max(largest, area);
    return largest;
}

} // namespace

class SteadyTabWidgetTest : public QObject {
    Q_OBJECT
private slots:
    void aPagesNewSizeHintRepaintsOnlyWhatChanged() {
        auto* plain = new QTabWidget;
        const int plainArea = largestRepaintAsALabelGrows(plain);
        // The behaviour this class exists for: QTabWidget repaints all of itself.
        QCOMPARE(plainArea, plain->width() * plain->height());

        auto* steady = new SteadyTabWidget;
        const int steadyArea = largestRepaintAsALabelGrows(steady);
        QVERIFY2(steadyArea >= 0 && steadyArea < steady->width() * steady->height() / 4,
                 qPrintable(
                     QString("%1 of %2").arg(steadyArea).arg(steady->width() * steady->height())));
    }

    void aRenamedTabIsPlacedAgain() {
        auto* tabs = new SteadyTabWidget;
        Window w(tabs);
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        QCoreApplication::processEvents();
        const int before = tabs->tabBar()->width();
        tabs->setTabText(0, "Locks under a much longer name than before");
        QCoreApplication::processEvents();
        QVERIFY(tabs->tabBar()->width() > before);
        QCOMPARE(tabs->tabBar()->width(), tabs->tabBar()->sizeHint().width());
    }

    // What the layouts above it learn of a page that needs more room, and where the page then
    // goes, are QTabWidget's.
    void aPageThatNeedsMoreRoomGetsItAsInAQTabWidget() {
        const auto grown = [](QTabWidget* tabs) {
            Window w(tabs);
            if (!QTest::qWaitForWindowExposed(&w.window))
                return std::pair<QSize, QRect>{};
            QCoreApplication::processEvents();
            w.label->setMinimumHeight(500);
            QTest::qWait(20);
            const QSize least = w.window.minimumSizeHint();
            w.window.resize(600, 900);
            QTest::qWait(20);
            return std::pair{least, w.label->geometry()};
        };
        const auto plain = grown(new QTabWidget);
        QVERIFY(plain.second.height() >= 500);
        QCOMPARE(grown(new SteadyTabWidget), plain);
    }
};

QTEST_MAIN(SteadyTabWidgetTest)
#include "steady_tab_widget_test.moc"
