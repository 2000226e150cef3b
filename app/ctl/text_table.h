#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

class QAbstractItemModel;

namespace lockscope {

// A table as etcdctl's table output looks: a boxed grid with upper-case headers, cells aligned
// as the models' TextAlignmentRole says. Rows come from one model or from many in turn (every
// lock's queue), copied as text, so a hundred thousand models need not stay alive together.
class TextTable {
public:
    // The headers of `model`'s `columns`: which columns are shown, and in what order.
    TextTable(const QAbstractItemModel& model, QList<int> columns);

    // Appends every row of `model`, which has the columns the table was made with.
    void addRows(const QAbstractItemModel& model);
    // Room for `rows` more rows of about `bytesPerRow` bytes of text, so a table of a hundred
    // thousand rows does not grow (and copy) its buffers a row at a time.
    void reserve(std::size_t rows, std::size_t bytesPerRow);
    // Appends one cell; a row is as many cells as the table has columns, in their order.
    // `width` is what Qt would justify it to: its QString's length (UTF-16 code units).
    void addCell(std::string_view utf8, qsizetype width, bool alignedRight);
    void addCell(const QString& text, bool alignedRight);
    QString render() const;
    // The same text in UTF-8 to `sink`, a block at a time: a snapshot's table of a hundred
    // thousand keys is tens of MB, never held whole.
    void write(std::FILE* sink) const;

private:
    // A cell's text is kept as UTF-8 in one buffer for all (a QString each cost ~200 B a cell
    // and most of a snapshot's time); its width is the QString's length, as Qt justifies it.
    struct Cell {
        std::size_t end = 0; // where its text ends in text_ (it starts where the last one ended)
        qsizetype width = 0;
        bool alignedRight = false;
    };
    // Calls `out` with each piece of the table in turn.
    template <typename Out> void renderTo(Out&& out) const;
    QList<int> columns_;
    std::vector<std::string> headers_; // UTF-8
    QList<qsizetype> headerWidths_;
    std::string text_;
    std::vector<Cell> cells_; // row after row, columns_.size() a row
};

// The table of one model's `columns` (empty: all of them).
QString renderTextTable(const QAbstractItemModel& model, QList<int> columns = {});

} // namespace lockscope
