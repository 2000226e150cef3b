// PlainTextDelegate beside Qt's own delegate, offscreen: the same text in the same place.
#include "support/qtest_registry.h"
#include "widgets/elided_key.h"
#include "widgets/plain_text_delegate.h"

#include <QApplication>
#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <climits>

using namespace lockscope;

namespace {

// Where a cell's text was drawn: the columns of its pixels unlike the cell's background.
struct Ink {
    int left = INT_MAX;
    int right = -1;
    int pixels = 0;
};

Ink inkIn(const QImage& image, const QRect& cell) {
    const QRgb background = image.pixel(cell.left() + 1, cell.top() + 1);
    Ink ink;
    for (int y = cell.top() + 1; y < cell.bottom(); ++y)
        for (int x = cell.left(); x <= cell.right(); ++x)
            if (image.pixel(x, y) != background) {
                ink.left = std::min(ink.left, x);
                ink.right = std::max(ink.right, x);
                ++ink.pixels;
            }
    return ink;
}

const QString longKey = "/locks/a-lock-with-a-long-name/694d8c3f2a1b0000";

// A name, a right-aligned number and a key too long for its cell.
struct ThreeCells : QStandardItemModel {
    ThreeCells()
        : QStandardItemModel(3, 1) {
        setItem(0, 0, new QStandardItem("lock-42"));
        auto* number = new QStandardItem("17");
        number->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(1, 0, number);
        setItem(2, 0, new QStandardItem(longKey));
    }
};

struct View {
    QTableView table;
    // Through PlainTextDelegate, or through Qt's own with `qts`.
    explicit View(QAbstractItemModel* model, bool qts = false) {
        if (!qts)
            table.setItemDelegate(new PlainTextDelegate(&table));
        table.setModel(model);
        table.setShowGrid(false);
        table.setTextElideMode(Qt::ElideMiddle);
        table.setWordWrap(false); // as LockScope shows its tables: one line a row
        table.verticalHeader()->hide();
        table.horizontalHeader()->hide();
        table.setColumnWidth(0, 140);
        table.resize(200, 120);
    }
    QRect cell(int row) const { return table.visualRect(table.model()->index(row, 0)); }
    QImage image() { return table.viewport()->grab().toImage(); }
};

} // namespace

class PlainTextDelegateTest : public QObject {
    Q_OBJECT
private slots:
    void drawsTextWhereQtsDelegateDoes() {
        ThreeCells model;
        View ours(&model);
        View qts(&model, true);
        const QImage ourImage = ours.image();
        const QImage qtImage = qts.image();
        for (int row = 0; row < model.rowCount(); ++row) {
            const Ink mine = inkIn(ourImage, ours.cell(row));
            const Ink theirs = inkIn(qtImage, qts.cell(row));
            const QString where = QString("row %1: ours %2..%3 (%4 px), Qt's %5..%6 (%7 px)")
                                      .arg(row)
                                      .arg(mine.left)
                                      .arg(mine.right)
                                      .arg(mine.pixels)
                                      .arg(theirs.left)
                                      .arg(theirs.right)
                                      .arg(theirs.pixels);
            QVERIFY2(theirs.pixels > 0, qPrintable(where));
            QVERIFY2(std::abs(mine.left - theirs.left) <= 2, qPrintable(where));
            QVERIFY2(std::abs(mine.right - theirs.right) <= 2, qPrintable(where));
            QVERIFY2(std::abs(mine.pixels - theirs.pixels) <= theirs.pixels / 4, qPrintable(where));
        }
        // The long key was elided to its cell, not cut at the edge.
        QVERIFY(inkIn(ourImage, ours.cell(2)).right < ours.cell(2).right() - 1);
    }

    void drawsASelectedRowInTheSelectionsColours() {
        ThreeCells model;
        View ours(&model);
        const Ink before = inkIn(ours.image(), ours.cell(0));
        ours.table.selectRow(0);
        const QImage image = ours.image();
        const QRect cell = ours.cell(0);
        QCOMPARE(QColor(image.pixel(cell.left() + 1, cell.top() + 1)),
                 ours.table.palette().color(QPalette::Inactive, QPalette::Highlight));
        const Ink selected = inkIn(image, cell);
        QVERIFY2(std::abs(selected.pixels - before.pixels) <= before.pixels / 4,
                 qPrintable(QString("%1 vs %2").arg(selected.pixels).arg(before.pixels)));
        // The text in the selection's text colour: its strokes' cores are exactly that colour.
        const QRgb highlightedText =
            ours.table.palette().color(QPalette::Inactive, QPalette::HighlightedText).rgb();
        int strokes = 0;
        for (int y = cell.top(); y <= cell.bottom(); ++y)
            for (int x = cell.left(); x <= cell.right(); ++x)
                strokes += image.pixel(x, y) == highlightedText;
        QVERIFY2(strokes >= 5, qPrintable(QString::number(strokes)));
    }

    // A long key elided keeps its lease suffix, the part that tells a lock's keys apart.
    void aLongKeyElidedKeepsItsLastSegment() {
        const QFontMetrics metrics(QApplication::font());
        const QString suffix = "/694d8c3f2a1b0000";
        const int suffixWidth = metrics.horizontalAdvance(suffix);
        for (int width : {suffixWidth + 40, suffixWidth + 80, suffixWidth + 140}) {
            const QString shown = elidedKey(metrics, longKey, width);
            QVERIFY2(shown.endsWith(suffix), qPrintable(shown));
            QVERIFY2(shown.contains("…"), qPrintable(shown));
            QVERIFY2(shown.startsWith("/l"), qPrintable(shown)); // and its start
            QVERIFY(metrics.horizontalAdvance(shown) <= width);
        }
        // Too narrow for the whole segment: its end stays.
        const QString narrow = elidedKey(metrics, longKey, metrics.horizontalAdvance("…2a1b0000"));
        QVERIFY2(narrow.endsWith("2a1b0000") && narrow.startsWith("…"), qPrintable(narrow));
        QCOMPARE(elidedKey(metrics, "/short/1", 500), QString("/short/1"));
        // Qt's middle elision, for comparison, loses the suffix at these widths.
        QVERIFY(!metrics.elidedText(longKey, Qt::ElideMiddle, suffixWidth + 80).endsWith(suffix));
    }

    void followsTheTextAsItChanges() {
        ThreeCells model;
        View ours(&model);
        const Ink short_ = inkIn(ours.image(), ours.cell(0));
        model.item(0, 0)->setText("lock-42-and-more");
        const Ink longer = inkIn(ours.image(), ours.cell(0));
        QVERIFY2(longer.right > short_.right + 20,
                 qPrintable(QString("%1 vs %2").arg(longer.right).arg(short_.right)));
    }
};

LOCKSCOPE_QTEST_MAIN(PlainTextDelegateTest)
#include "plain_text_delegate_test.moc"
