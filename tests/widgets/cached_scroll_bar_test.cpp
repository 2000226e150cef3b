// CachedScrollBar beside a plain QScrollBar, offscreen: the same pixels, the groove drawn by the
// style only when the bar's look changes.
#include "support/qtest_registry.h"
#include "widgets/cached_scroll_bar.h"

#include <QImage>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QTest>
#include <memory>

using namespace lockscope;

namespace {

// A style, counting the scroll bars it draws: grooves, and the rest.
class CountingStyle : public QProxyStyle {
public:
    explicit CountingStyle(const char* base)
        : QProxyStyle(QStyleFactory::create(base)) {}
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
    // Fusion draws no pages either side of the handle; Windows does, and they move with it.
    void looksLikeAPlainScrollBarAsItMoves_data() {
        QTest::addColumn<QString>("style");
        QTest::newRow("Fusion") << "Fusion";
        QTest::newRow("Windows") << "Windows";
    }
    void looksLikeAPlainScrollBarAsItMoves() {
        QFETCH(QString, style);
        const std::unique_ptr<QStyle> drawing(QStyleFactory::create(style));
        CachedScrollBar cached(Qt::Vertical);
        cached.setStyle(drawing.get());
        place(cached, 100, 0);
        picture(cached); // the groove pictured at the top
        for (const auto& [maximum, value] : {std::pair{100, 50}, {100, 100}, {0, 0}}) {
            QScrollBar plain(Qt::Vertical);
            plain.setStyle(drawing.get());
            place(plain, maximum, value);
            place(cached, maximum, value);
            QCOMPARE(picture(cached), picture(plain));
            plain.setEnabled(false);
            cached.setEnabled(false);
            QCOMPARE(picture(cached), picture(plain));
            cached.setEnabled(true);
        }
    }

    void drawsTheGrooveOnlyWhenItsLookChanges() {
        CountingStyle style("Fusion");
        CachedScrollBar bar(Qt::Vertical);
        bar.setStyle(&style);
        place(bar, 100000, 100000); // a long log, followed at its end
        const QImage first = picture(bar);
        QCOMPARE(style.grooves, 1);
        QCOMPARE(style.handles, 1);
        QCOMPARE(picture(bar), first);
        QCOMPARE(style.grooves, 1);
        QCOMPARE(style.handles, 2);

        // The handle moves over the same groove.
        bar.setValue(50000);
        QVERIFY(picture(bar) != first);
        QCOMPARE(style.grooves, 1);

        // Another size, a disabled bar or a palette change draws the groove again.
        bar.resize(14, 300);
        picture(bar);
        QCOMPARE(style.grooves, 2);
        bar.setEnabled(false);
        picture(bar);
        QCOMPARE(style.grooves, 3);
        QPalette dark = bar.palette();
        dark.setColor(QPalette::Button, Qt::darkGray);
        bar.setPalette(dark);
        picture(bar);
        QCOMPARE(style.grooves, 4);
    }
};

LOCKSCOPE_QTEST_MAIN(CachedScrollBarTest)
#include "cached_scroll_bar_test.moc"
