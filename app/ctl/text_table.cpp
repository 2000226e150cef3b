#include "app/ctl/text_table.h"

#include <QAbstractItemModel>
#include <QList>
#include <algorithm>

namespace lockscope {

namespace {

QString cellText(const QAbstractItemModel& model, int row, int column) {
    return model.data(model.index(row, column)).toString();
}

bool alignedRight(const QAbstractItemModel& model, int row, int column) {
    const auto alignment = model.data(model.index(row, column), Qt::TextAlignmentRole);
    return alignment.isValid() && (alignment.value<Qt::Alignment>() & Qt::AlignRight);
}

QString ruler(const QList<qsizetype>& widths) {
    QString line = "+";
    for (qsizetype width : widths)
        line += QString(width + 2, '-') + "+";
    return line + "\n";
}

} // namespace

QString renderTextTable(const QAbstractItemModel& model, QList<int> columns) {
    if (columns.isEmpty())
        for (int column = 0; column < model.columnCount(); ++column)
            columns << column;
    const int rows = model.rowCount();
    QList<qsizetype> widths;
    QStringList headers;
    for (int column : columns) {
        headers << model.headerData(column, Qt::Horizontal).toString().toUpper();
        qsizetype width = headers.last().size();
        for (int row = 0; row < rows; ++row)
            width = std::max(width, cellText(model, row, column).size());
        widths << width;
    }

    QString out = ruler(widths) + "|";
    for (qsizetype shown = 0; shown < columns.size(); ++shown) {
        const qsizetype spare = widths[shown] - headers[shown].size();
        out += QString(1 + spare / 2, ' ') + headers[shown] + QString(1 + spare - spare / 2, ' ') +
               "|";
    }
    out += "\n" + ruler(widths);
    for (int row = 0; row < rows; ++row) {
        out += "|";
        for (qsizetype shown = 0; shown < columns.size(); ++shown) {
            const int column = columns[shown];
            const QString text = cellText(model, row, column);
            const QString padded = alignedRight(model, row, column)
                                       ? text.rightJustified(widths[shown])
                                       : text.leftJustified(widths[shown]);
            out += " " + padded + " |";
        }
        out += "\n";
    }
    return out + ruler(widths);
}

} // namespace lockscope
