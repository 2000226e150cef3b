#include "app/ctl/text_table.h"

#include <QAbstractItemModel>
#include <algorithm>

namespace lockscope {

namespace {

QString ruler(const QList<qsizetype>& widths) {
    QString line = "+";
    for (qsizetype width : widths)
        line += QString(width + 2, '-') + "+";
    return line + "\n";
}

} // namespace

TextTable::TextTable(const QAbstractItemModel& model, QList<int> columns)
    : columns_(std::move(columns)) {
    if (columns_.isEmpty())
        for (int column = 0; column < model.columnCount(); ++column)
            columns_ << column;
    for (int column : columns_)
        headers_ << model.headerData(column, Qt::Horizontal).toString().toUpper();
}

void TextTable::addRows(const QAbstractItemModel& model) {
    for (int row = 0; row < model.rowCount(); ++row) {
        std::vector<Cell>& cells = rows_.emplace_back();
        cells.reserve(static_cast<std::size_t>(columns_.size()));
        for (int column : columns_) {
            const QModelIndex index = model.index(row, column);
            const QVariant alignment = model.data(index, Qt::TextAlignmentRole);
            cells.push_back(
                {model.data(index).toString(),
                 alignment.isValid() && (alignment.value<Qt::Alignment>() & Qt::AlignRight)});
        }
    }
}

QString TextTable::render() const {
    QList<qsizetype> widths;
    for (qsizetype shown = 0; shown < headers_.size(); ++shown) {
        qsizetype width = headers_[shown].size();
        for (const std::vector<Cell>& cells : rows_)
            width = std::max(width, cells[static_cast<std::size_t>(shown)].text.size());
        widths << width;
    }
    QString out = ruler(widths) + "|";
    for (qsizetype shown = 0; shown < headers_.size(); ++shown) {
        const qsizetype spare = widths[shown] - headers_[shown].size();
        out += QString(1 + spare / 2, ' ') + headers_[shown] + QString(1 + spare - spare / 2, ' ') +
               "|";
    }
    out += "\n" + ruler(widths);
    for (const std::vector<Cell>& cells : rows_) {
        out += "|";
        for (qsizetype shown = 0; shown < headers_.size(); ++shown) {
            const Cell& cell = cells[static_cast<std::size_t>(shown)];
            out += " " +
                   (cell.alignedRight ? cell.text.rightJustified(widths[shown])
                                      : cell.text.leftJustified(widths[shown])) +
                   " |";
        }
        out += "\n";
    }
    return out + ruler(widths);
}

QString renderTextTable(const QAbstractItemModel& model, QList<int> columns) {
    TextTable table(model, std::move(columns));
    table.addRows(model);
    return table.render();
}

} // namespace lockscope
