#pragma once

#include <QList>
#include <QString>
#include <QStringList>
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
    QString render() const;

private:
    struct Cell {
        QString text;
        bool alignedRight = false;
    };
    QList<int> columns_;
    QStringList headers_;
    std::vector<std::vector<Cell>> rows_;
};

// The table of one model's `columns` (empty: all of them).
QString renderTextTable(const QAbstractItemModel& model, QList<int> columns = {});

} // namespace lockscope
