// SteadyTabWidget against QTabWidget, offscreen: what a page's new size hint repaints, and
// that tab bars and pages still get the room they ask for.
#include "support/qtest_registry.h"
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
// settled, and the tab widget's whole area.
std::pair<int, int> largestRepaintAsALabelGrows(QTabWidget* tabs) {
    Window w(tabs);
    if (!QTest::qWaitForWindowExposed(&w.window))
        return {-1, -1};
    QTest::qWait(100); // the first show's layouts and paints
    PaintedAreas painted;
    tabs->installEventFilter(&painted);
    for (int i = 1; i <= 5; ++i) {
        w.label->setText(QString(i * 10, 'x'));
        QTest::qWait(20); // the platform's next frame
    }
    int largest = 0;
    for (int area : painted.areas)
        largest = std::max(largest, area);
    return {largest, tabs->width() * tabs->height()};
}

} // namespace

class SteadyTabWidgetTest : public QObject {
    Q_OBJECT
private slots:
    void aPagesNewSizeHintRepaintsOnlyWhatChanged() {
        const auto [plainArea, plainWhole] = largestRepaintAsALabelGrows(new QTabWidget);
        // The behaviour this class exists for: QTabWidget repaints all of itself.
        QVERIFY(plainWhole > 0);
        QCOMPARE(plainArea, plainWhole);

        const auto [steadyArea, steadyWhole] = largestRepaintAsALabelGrows(new SteadyTabWidget);
        // The label's strip is painted (the parents under it), not the rest.
        QVERIFY2(steadyArea > 0 && steadyArea < steadyWhole / 4,
                 qPrintable(QString("%1 of %2").arg(steadyArea).arg(steadyWhole)));
    }

    // Changes that move the tab bar or a corner, made without QTabWidget's knowledge, still
    // place them again.
    void aTabBarOrCornerThatWantsOtherRoomIsPlacedAgain() {
        auto* tabs = new SteadyTabWidget;
        auto* corner = new QLabel("x");
        tabs->setCornerWidget(corner, Qt::TopRightCorner);
        Window w(tabs);
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        QTest::qWait(50);
        const int before = tabs->tabBar()->width();
        tabs->tabBar()->setTabText(0, "Locks under a much longer name than before");
        QTRY_VERIFY(tabs->tabBar()->width() > before);
        QCOMPARE(tabs->tabBar()->width(), tabs->tabBar()->sizeHint().width());

        const int cornerBefore = corner->width();
        corner->setText("a corner with a long text");
        QTRY_VERIFY(corner->width() > cornerBefore);
        corner->hide();
        tabs->tabBar()->hide();
        QTRY_VERIFY(tabs->findChild<QWidget*>("qt_tabwidget_stackedwidget")->y() <
                    tabs->tabBar()->sizeHint().height());
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
            QTest::qWait(50);
            const QSize least = w.window.minimumSizeHint();
            w.window.resize(600, 900);
            QTest::qWait(50);
            return std::pair{least, w.label->geometry()};
        };
        const auto plain = grown(new QTabWidget);
        QVERIFY(plain.second.height() >= 500);
        QCOMPARE(grown(new SteadyTabWidget), plain);
    }
};

LOCKSCOPE_QTEST_MAIN(SteadyTabWidgetTest)
#include "steady_tab_widget_test.moc"
