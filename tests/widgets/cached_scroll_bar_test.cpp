// CachedScrollBar beside a plain QScrollBar, offscreen: the same pixels, drawn by the style
// only when the bar's look changes.
#include "widgets/cached_scroll_bar.h"

#include <QImage>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QTest>

using namespace lockscope;

namespace {

// Fusion, counting the scroll bars it draws: grooves, and the rest.
class CountingStyle : public QProxyStyle {
public:
    CountingStyle()
        : QProxyStyle(QStyleFactory::create("Fusion")) {}
    mutable int grooves = 0;
    mutable int handles = 0;
    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option,
                            QPainter* painter, const QWidget* widget) const override {
        if (control == CC_ScrollBar)
            ++(option->subControls & SC_ScrollBarGroove ? grooves : handles);
        QProxyStyle::drawComplexControl(control, option, painter, widget);
    }
};

// A tall bar, as beside a table, at `value` of 0..`maximum`.
void place(QScrollBar& bar, int maximum, int value) {
    bar.setRange(0, maximum);
    bar.setPageStep(10);
    bar.setValue(value);
    bar.resize(14, 400);
}

QImage picture(QScrollBar& bar) {
    return bar.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

} // namespace

class CachedScrollBarTest : public QObject {
    Q_OBJECT
private slots:
    void looksLikeAPlainScrollBar() {
        for (const auto& [maximum, value] : {std::pair{100, 0}, {100, 50}, {100, 100}, {0, 0}}) {
            QScrollBar plain(Qt::Vertical);
            CachedScrollBar cached(Qt::Vertical);
            place(plain, maximum, value);
            place(cached, maximum, value);
            QCOMPARE(picture(cached), picture(plain));
            plain.setEnabled(false);
            cached.setEnabled(false);
            QCOMPARE(picture(cached), picture(plain));
        }
    }

    void drawsOnlyWhenItsLookChanges() {
        CountingStyle style;
        CachedScrollBar bar(Qt::Vertical);
        bar.setStyle(&style);
        place(bar, 100000, 100000); // a long log, followed at its end
        const QImage first = picture(bar);

        // Only the handle and arrows are drawn on each paint, over the picture of the groove.
        QCOMPARE(style.grooves, 1);
        QCOMPARE(style.handles, 1);
        QCOMPARE(picture(bar), first);
        QCOMPARE(style.grooves, 1);
        QCOMPARE(style.handles, 2);

        // The handle moves over the same groove.
        bar.setValue(50000);
        QVERIFY(picture(bar) != first);
        QCOMPARE(style.grooves, 1);

        // Another size, or a disabled bar, draws the groove again.
        bar.resize(14, 300);
        picture(bar);
        QCOMPARE(style.grooves, 2);
        bar.setEnabled(false);
        picture(bar);
        QCOMPARE(style.grooves, 3);
        bar.setStyle(nullptr); // `style` goes first
    }
};

QTEST_MAIN(CachedScrollBarTest)
#include "cached_scroll_bar_test.moc"
