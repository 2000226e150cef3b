#include "app/ctl/text_table.h"

#include <QAbstractItemModel>
#include <algorithm>

namespace lockscope {

namespace {

// Appends `text` in UTF-8: ASCII as it is, anything else as QString::toUtf8 writes it.
void appendUtf8(std::string& out, const QString& text) {
    const qsizetype size = text.size();
    const QChar* chars = text.constData();
    const std::size_t start = out.size();
    out.resize(start + static_cast<std::size_t>(size));
    for (qsizetype i = 0; i < size; ++i) {
        const char16_t c = chars[i].unicode();
        if (c >= 0x80) {
            out.resize(start);
            const QByteArray utf8 = text.toUtf8();
            out.append(utf8.constData(), static_cast<std::size_t>(utf8.size()));
            return;
        }
        out[start + static_cast<std::size_t>(i)] = static_cast<char>(c);
    }
}

} // namespace

TextTable::TextTable(const QAbstractItemModel& model, QList<int> columns)
    : columns_(std::move(columns)) {
    if (columns_.isEmpty())
        for (int column = 0; column < model.columnCount(); ++column)
            columns_ << column;
    for (int column : columns_) {
        const QString header = model.headerData(column, Qt::Horizontal).toString().toUpper();
        appendUtf8(headers_.emplace_back(), header);
        headerWidths_ << header.size();
    }
}

void TextTable::addRows(const QAbstractItemModel& model) {
    for (int row = 0; row < model.rowCount(); ++row)
        for (int column : columns_) {
            const QModelIndex index = model.index(row, column);
            const QVariant alignment = model.data(index, Qt::TextAlignmentRole);
            addCell(model.data(index).toString(),
                    alignment.isValid() && (alignment.value<Qt::Alignment>() & Qt::AlignRight));
        }
}

void TextTable::reserve(std::size_t rows, std::size_t bytesPerRow) {
    cells_.reserve(cells_.size() + rows * static_cast<std::size_t>(columns_.size()));
    text_.reserve(text_.size() + rows * bytesPerRow);
}

void TextTable::addCell(std::string_view utf8, qsizetype width, bool alignedRight) {
    text_.append(utf8);
    cells_.push_back({text_.size(), width, alignedRight});
}

void TextTable::addCell(const QString& text, bool alignedRight) {
    appendUtf8(text_, text);
    cells_.push_back({text_.size(), text.size(), alignedRight});
}

template <typename Out> void TextTable::renderTo(Out&& out) const {
    const std::size_t shown = headers_.size();
    std::vector<qsizetype> widths(headerWidths_.begin(), headerWidths_.end());
    for (std::size_t i = 0; i < cells_.size(); ++i)
        widths[i % shown] = std::max(widths[i % shown], cells_[i].width);
    std::string ruler = "+";
    for (qsizetype width : widths)
        ruler.append(static_cast<std::size_t>(width + 2), '-') += '+';
    ruler += '\n';
    std::string line = ruler + "|";
    for (std::size_t column = 0; column < shown; ++column) {
        const auto spare = static_cast<std::size_t>(widths[column] - headerWidths_[column]);
        line.append(1 + spare / 2, ' ').append(headers_[column]).append(1 + spare - spare / 2, ' ');
        line += '|';
    }
    line += '\n';
    line += ruler;
    out(line);
    std::size_t start = 0;
    for (std::size_t i = 0; i < cells_.size(); ++i) {
        const std::size_t column = i % shown;
        line.clear();
        if (column == 0)
            line += '|';
        const Cell& cell = cells_[i];
        const auto pad = static_cast<std::size_t>(widths[column] - cell.width);
        line += ' ';
        if (cell.alignedRight)
            line.append(pad, ' ');
        line.append(text_, start, cell.end - start);
        if (!cell.alignedRight)
            line.append(pad, ' ');
        line += " |";
        if (column + 1 == shown)
            line += '\n';
        start = cell.end;
        out(line);
    }
    out(ruler);
}

QString TextTable::render() const {
    std::string text;
    renderTo([&](const std::string& piece) { text += piece; });
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

void TextTable::write(std::FILE* sink) const {
    constexpr std::size_t block = 1 << 16;
    std::string buffer;
    buffer.reserve(2 * block);
    renderTo([&](const std::string& piece) {
        buffer += piece;
        if (buffer.size() >= block) {
            std::fwrite(buffer.data(), 1, buffer.size(), sink);
            buffer.clear();
        }
    });
    std::fwrite(buffer.data(), 1, buffer.size(), sink);
}

QString renderTextTable(const QAbstractItemModel& model, QList<int> columns) {
    TextTable table(model, std::move(columns));
    table.addRows(model);
    return table.render();
}

} // namespace lockscope
