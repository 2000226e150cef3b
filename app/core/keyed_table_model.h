#pragma once

#include <QAbstractTableModel>
#include <limits>
#include <string>
#include <unordered_set>
#include <vector>

namespace lockscope {

// A table model whose rows each have an identity (`Row::id`) and arrive as whole new lists.
// syncRows turns each new list into removals, insertions and one ranged dataChanged, never a
// reset, so views keep their selection and scroll position however often the data comes.
class KeyedTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    // `positional`: a row's cells depend on its place (a queue position, a predecessor), so
    // every row from the first insertion or removal down is reported changed too.
    template <class Row>
    void syncRows(std::vector<Row>& rows, std::vector<Row> next, bool positional);

private:
    template <class Row>
    static bool keepsOrder(const std::vector<Row>& rows, const std::vector<Row>& next,
                           const std::unordered_set<std::string>& nextIds);
};

template <class Row>
bool KeyedTableModel::keepsOrder(const std::vector<Row>& rows, const std::vector<Row>& next,
                                 const std::unordered_set<std::string>& nextIds) {
    std::size_t j = 0;
    for (const Row& row : rows) {
        if (!nextIds.contains(row.id))
            continue;
        while (j < next.size() && next[j].id != row.id)
            ++j;
        if (j == next.size())
            return false;
        ++j;
    }
    return true;
}

template <class Row>
void KeyedTableModel::syncRows(std::vector<Row>& rows, std::vector<Row> next, bool positional) {
    std::unordered_set<std::string> nextIds;
    nextIds.reserve(next.size());
    for (const Row& row : next)
        nextIds.insert(row.id);
    // Rows that swapped places (or duplicate ids) cannot be expressed as inserts and removes
    // without moves; ids are chosen so that this does not happen in practice.
    if (nextIds.size() != next.size() || !keepsOrder(rows, next, nextIds)) {
        beginResetModel();
        rows = std::move(next);
        endResetModel();
        return;
    }

    int firstShifted = std::numeric_limits<int>::max();
    // Removals bottom up, a contiguous run at a time, so the indices still to visit stay valid.
    for (int end = static_cast<int>(rows.size()); end > 0;) {
        if (nextIds.contains(rows[end - 1].id)) {
            --end;
            continue;
        }
        int begin = end - 1;
        while (begin > 0 && !nextIds.contains(rows[begin - 1].id))
            --begin;
        beginRemoveRows({}, begin, end - 1);
        rows.erase(rows.begin() + begin, rows.begin() + end);
        endRemoveRows();
        firstShifted = begin;
        end = begin;
    }

    std::unordered_set<std::string> keptIds;
    keptIds.reserve(rows.size());
    for (const Row& row : rows)
        keptIds.insert(row.id);
    int firstChanged = std::numeric_limits<int>::max();
    int lastChanged = -1;
    int i = 0;
    for (std::size_t j = 0; j < next.size();) {
        if (i < static_cast<int>(rows.size()) && rows[i].id == next[j].id) {
            if (!(rows[i] == next[j])) {
                rows[i] = std::move(next[j]);
                firstChanged = std::min(firstChanged, i);
                lastChanged = i;
            }
            ++i;
            ++j;
            continue;
        }
        std::size_t runEnd = j;
        while (runEnd < next.size() && !keptIds.contains(next[runEnd].id))
            ++runEnd;
        const int count = static_cast<int>(runEnd - j);
        beginInsertRows({}, i, i + count - 1);
        rows.insert(rows.begin() + i, std::make_move_iterator(next.begin() + j),
                    std::make_move_iterator(next.begin() + runEnd));
        endInsertRows();
        firstShifted = std::min(firstShifted, i);
        i += count;
        j = runEnd;
    }

    if (positional && firstShifted < static_cast<int>(rows.size())) {
        firstChanged = std::min(firstChanged, firstShifted);
        lastChanged = static_cast<int>(rows.size()) - 1;
    }
    if (lastChanged >= 0)
        emit dataChanged(index(firstChanged, 0), index(lastChanged, columnCount() - 1));
}

} // namespace lockscope
