#include "app/core/lock_list_proxy.h"

#include "app/core/lock_list_model.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <numeric>
#include <optional>

namespace lockscope {

namespace {

// Above this many runs of proxy rows, rows come and go in one layout change (a view takes each
// insert or removal in a pass over all its rows, QHeaderView's, and a layout change in one), and
// changed rows are reported in one range around them all.
constexpr std::size_t MaxRunSignals = 16;

// Runs of consecutive values in sorted `rows`, as [first, last] pairs.
std::vector<std::pair<int, int>> runsOf(const std::vector<int>& rows) {
    std::vector<std::pair<int, int>> runs;
    for (int row : rows) {
        if (!runs.empty() && runs.back().second + 1 == row)
            runs.back().second = row;
        else
            runs.emplace_back(row, row);
    }
    return runs;
}

// Rows 0..n-1 by their `keys`, ties in row order: a stable LSD radix sort over the keys' bits, 16
// at a time, that skips a digit every key shares (counts of waiters differ in the top bits only):
// a few passes over a million rows instead of twenty million comparisons.
std::vector<int> rowsByNumber(const std::vector<double>& keys, bool ascending) {
    const std::size_t rows = keys.size();
    std::vector<std::pair<uint64_t, int>> from(rows), to(rows);
    for (std::size_t row = 0; row < rows; ++row) {
        // Bits that order as the doubles do: a negative's all flipped, the sign bit set on others.
        uint64_t bits = std::bit_cast<uint64_t>(keys[row]);
        bits = bits >> 63 ? ~bits : bits | (uint64_t(1) << 63);
        from[row] = {ascending ? bits : ~bits, static_cast<int>(row)};
    }
    std::vector<std::size_t> starts(std::size_t(1) << 16);
    for (int shift = 0; shift < 64; shift += 16) {
        std::fill(starts.begin(), starts.end(), 0);
        for (const auto& item : from)
            ++starts[(item.first >> shift) & 0xffff];
        if (std::find(starts.begin(), starts.end(), rows) != starts.end())
            continue;
        std::size_t start = 0;
        for (std::size_t& count : starts)
            start += std::exchange(count, start);
        for (const auto& item : from)
            to[starts[(item.first >> shift) & 0xffff]++] = item;
        from.swap(to);
    }
    std::vector<int> sorted(rows);
    for (std::size_t i = 0; i < rows; ++i)
        sorted[i] = from[i].second;
    return sorted;
}

} // namespace

LockListProxy::LockListProxy(QObject* parent)
    : QAbstractProxyModel(parent) {}

void LockListProxy::setLocks(LockListModel* locks) {
    for (const QMetaObject::Connection& connection : std::as_const(connections_))
        disconnect(connection);
    connections_.clear();
    beginResetModel();
    locks_ = locks;
    setSourceModel(locks);
    if (locks) {
        connections_ = {
            connect(locks, &QAbstractItemModel::rowsInserted, this,
                    &LockListProxy::sourceRowsInserted),
            connect(locks, &QAbstractItemModel::rowsAboutToBeRemoved, this,
                    &LockListProxy::sourceRowsAboutToBeRemoved),
            connect(locks, &QAbstractItemModel::rowsRemoved, this,
                    &LockListProxy::sourceRowsRemoved),
            connect(locks, &QAbstractItemModel::dataChanged, this,
                    &LockListProxy::sourceDataChanged),
            connect(locks, &QAbstractItemModel::layoutAboutToBeChanged, this,
                    &LockListProxy::sourceLayoutAboutToBeChanged),
            connect(locks, &QAbstractItemModel::layoutChanged, this,
                    &LockListProxy::sourceLayoutChanged),
            connect(locks, &QAbstractItemModel::rowsAboutToBeMoved, this,
                    &LockListProxy::sourceLayoutAboutToBeChanged),
            connect(locks, &QAbstractItemModel::rowsMoved, this,
                    &LockListProxy::sourceLayoutChanged),
            connect(locks, &QAbstractItemModel::modelAboutToBeReset, this,
                    &LockListProxy::beginResetModel),
            connect(locks, &QAbstractItemModel::modelReset, this,
                    [this] {
                        rebuild();
                        endResetModel();
                    }),
            connect(locks, &LockListModel::rowsExpected, this, &LockListProxy::reserve),
            connect(locks, &QAbstractItemModel::headerDataChanged, this,
                    &QAbstractItemModel::headerDataChanged),
            connect(locks, &QObject::destroyed, this, [this] { setLocks(nullptr); }),
        };
    }
    rebuild();
    endResetModel();
}

void LockListProxy::reserve(std::size_t rows) {
    reservedRows_ = std::max(reservedRows_, rows);
    folded_.reserve(rows);
    matches_.reserve(rows);
    numberKeys_.reserve(sortKey() == SortKey::Number ? rows : 0);
    byteKeys_.reserve(sortKey() == SortKey::Bytes ? rows : 0);
    proxyRows_.reserve(rows);
    order_.reserve(rows);
    shown_.reserve(rows);
}

std::size_t LockListProxy::rowsRoom() const {
    return std::min({folded_.capacity(), matches_.capacity(), proxyRows_.capacity(),
                     order_.capacity(), shown_.capacity()});
}

void LockListProxy::rebuild() {
    const int rows = locks_ ? locks_->rowCount() : 0;
    folded_.clear();
    folded_.insert(0, static_cast<std::size_t>(rows));
    matches_.assign(static_cast<std::size_t>(rows), 1);
    for (int row = 0; row < rows; ++row) {
        folded_.set(row, locks_->lockNameOf(row));
        matches_[row] = matches(row);
    }
    takeKeys();
    sortRows();
    proxyRows_.assign(static_cast<std::size_t>(rows), -1);
    showMatches();
}

void LockListProxy::setNameFilter(const QString& text) {
    std::string folded = FoldedNames::foldedFilter(text);
    if (folded == filter_)
        return;
    const bool narrowed = !filter_.empty() && folded.find(filter_) != std::string::npos;
    changeLayout([&] {
        filter_ = std::move(folded);
        if (filter_.empty()) {
            std::fill(matches_.begin(), matches_.end(), 1);
        } else if (narrowed) { // a row not shown did not hold the shorter text
            for (int row : shown_)
                matches_[row] = matches(row);
        } else {
            for (std::size_t row = 0; row < matches_.size(); ++row)
                matches_[row] = matches(static_cast<int>(row));
        }
        showMatches(narrowed);
    });
}

bool LockListProxy::matches(int row) const {
    return filter_.empty() || folded_.at(row).find(filter_) != std::string_view::npos;
}

void LockListProxy::sort(int column, Qt::SortOrder order) {
    if (column == sortColumn_ && order == sortOrder_)
        return;
    changeLayout([&] {
        sortColumn_ = column;
        sortOrder_ = order;
        takeKeys();
        sortRows();
        showMatches();
    });
}

LockListProxy::SortKey LockListProxy::sortKey() const {
    if (sortColumn_ <= LockListModel::Name || sortColumn_ >= LockListModel::ColumnCount)
        return SortKey::Row;
    if (LockListModel::sortsByNumber(sortColumn_))
        return SortKey::Number;
    return LockListModel::sortsByBytes(sortColumn_) ? SortKey::Bytes : SortKey::Row;
}

bool LockListProxy::takeKey(int row) {
    switch (sortKey()) {
    case SortKey::Row: return false;
    case SortKey::Number: {
        const double key = locks_->sortNumberAt(row, sortColumn_);
        return std::exchange(numberKeys_[row], key) != key;
    }
    case SortKey::Bytes: {
        std::string bytes;
        const bool none = !locks_->appendSortBytes(row, sortColumn_, bytes);
        ByteKey& key = byteKeys_[row];
        if (none == key.none && bytes == bytesOf(key))
            return false;
        key = {0, 0, std::make_unique<const std::string>(std::move(bytes)), none};
        return true;
    }
    }
    return false;
}

void LockListProxy::takeKeys() {
    const std::size_t rows = folded_.size();
    numberKeys_.assign(sortKey() == SortKey::Number ? rows : 0, 0);
    byteKeys_.clear();
    byteKeys_.resize(sortKey() == SortKey::Bytes ? rows : 0);
    keyBytes_ = std::string();
    if (sortKey() == SortKey::Bytes && rows > 0) { // into keyBytes_, not a string per row
        // Room at once: grown as it filled, it was copied and faulted in again and again (12 ms
        // more of a million). A holder's key is its lock's name and a lease's 16 hex digits
        // after a slash, as the folded names are about the names: a guess, not a walk of every
        // row to count (30 ms of a million, each row's key three pointers away).
        keyBytes_.reserve(folded_.bytesHeld() + rows * 24);
        for (std::size_t row = 0; row < rows; ++row) {
            ByteKey& key = byteKeys_[row];
            key.at = keyBytes_.size();
            key.none = !locks_->appendSortBytes(static_cast<int>(row), sortColumn_, keyBytes_);
            key.size = keyBytes_.size() - key.at;
        }
        return;
    }
    for (std::size_t row = 0; row < rows; ++row)
        takeKey(static_cast<int>(row));
}

std::string_view LockListProxy::bytesOf(const ByteKey& key) const {
    return key.own ? std::string_view(*key.own)
                   : std::string_view(keyBytes_).substr(key.at, key.size);
}

bool LockListProxy::before(int a, int b) const {
    const bool ascending = sortOrder_ == Qt::AscendingOrder;
    switch (sortKey()) {
    case SortKey::Row: // the name order, reversed by Name descending
        return ascending || sortColumn_ != LockListModel::Name ? a < b : a > b;
    case SortKey::Number:
        if (numberKeys_[a] != numberKeys_[b])
            return (numberKeys_[a] < numberKeys_[b]) == ascending;
        break;
    case SortKey::Bytes: {
        const ByteKey& left = byteKeys_[a];
        const ByteKey& right = byteKeys_[b];
        const int order = left.none || right.none ? int(left.none) - int(right.none)
                                                  : bytesOf(left).compare(bytesOf(right));
        if (order != 0)
            return (order < 0) == ascending;
        break;
    }
    }
    return a < b; // a tie: in name order
}

void LockListProxy::sortRows() {
    const bool ascending = sortOrder_ == Qt::AscendingOrder;
    if (sortKey() == SortKey::Number) {
        order_ = rowsByNumber(numberKeys_, ascending);
        order_.reserve(reservedRows_);
        return;
    }
    // By Name, or by keys that mostly follow the names (a holder's key starts with its lock's
    // name): the name order, or its reverse, is sorted already or nearly.
    order_.resize(folded_.size());
    std::iota(order_.begin(), order_.end(), 0);
    if (!ascending && (sortKey() != SortKey::Row || sortColumn_ == LockListModel::Name))
        std::reverse(order_.begin(), order_.end());
    const auto less = [this](int a, int b) { return before(a, b); };
    if (!std::is_sorted(order_.begin(), order_.end(), less))
        std::sort(order_.begin(), order_.end(), less); // a strict order: ties go by row
}

void LockListProxy::showMatches(bool narrowed) {
    if (narrowed) { // only rows shown may stay: a pass over them
        std::size_t kept = 0;
        for (int row : shown_) {
            if (matches_[row])
                shown_[kept++] = row;
            else
                proxyRows_[row] = -1;
        }
        shown_.resize(kept);
        numberShown(0);
        return;
    }
    shown_.clear();
    for (int row : order_)
        if (matches_[row])
            shown_.push_back(row);
    if (shown_.size() < proxyRows_.size())
        std::fill(proxyRows_.begin(), proxyRows_.end(), -1);
    numberShown(0);
}

void LockListProxy::numberShown(std::size_t from) {
    for (std::size_t proxyRow = from; proxyRow < shown_.size(); ++proxyRow)
        proxyRows_[shown_[proxyRow]] = static_cast<int>(proxyRow);
}

template <class Change> void LockListProxy::changeLayout(Change change) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> sources;
    sources.reserve(static_cast<std::size_t>(before.size()));
    for (const QModelIndex& index : before)
        sources.push_back(shown_[index.row()]);
    change();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i) {
        const int row = proxyRows_[sources[i]];
        after << (row < 0 ? QModelIndex() : index(row, before[i].column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void LockListProxy::sourceRowsInserted(const QModelIndex& parent, int first, int last) {
    if (parent.isValid())
        return;
    const int count = last - first + 1;
    // Rows at and after `first` moved down `count` rows.
    if (static_cast<std::size_t>(first) < folded_.size()) {
        for (int& row : order_)
            row += row >= first ? count : 0;
        for (int& row : shown_)
            row += row >= first ? count : 0;
    }
    folded_.insert(first, static_cast<std::size_t>(count));
    matches_.insert(matches_.begin() + first, static_cast<std::size_t>(count), 0);
    proxyRows_.insert(proxyRows_.begin() + first, static_cast<std::size_t>(count), -1);
    if (sortKey() == SortKey::Number)
        numberKeys_.insert(numberKeys_.begin() + first, static_cast<std::size_t>(count), 0);
    if (sortKey() == SortKey::Bytes) {
        std::vector<ByteKey> keys(static_cast<std::size_t>(count)); // moved in: not copyable
        byteKeys_.insert(byteKeys_.begin() + first, std::make_move_iterator(keys.begin()),
                         std::make_move_iterator(keys.end()));
    }
    std::vector<int> added(static_cast<std::size_t>(count));
    std::iota(added.begin(), added.end(), first);
    for (int row : added) {
        folded_.set(row, locks_->lockNameOf(row));
        matches_[row] = matches(row);
        takeKey(row);
    }
    insertIntoOrder(added);

    // Into the rows shown: a run of new rows at each proxy row they go before.
    std::vector<std::pair<int, std::vector<int>>> runs; // proxy row, source rows
    for (int row : added) {
        if (!matches_[row])
            continue;
        const int proxyRow =
            static_cast<int>(std::partition_point(shown_.begin(), shown_.end(),
                                                  [&](int other) { return before(other, row); }) -
                             shown_.begin());
        if (runs.empty() || runs.back().first != proxyRow)
            runs.emplace_back(proxyRow, std::vector<int>());
        runs.back().second.push_back(row);
    }
    if (runs.size() > MaxRunSignals) {
        changeLayout([this] { showMatches(); });
        return;
    }
    int inserted = 0;
    for (const auto& [proxyRow, rows] : runs) {
        const int at = proxyRow + inserted;
        beginInsertRows({}, at, at + static_cast<int>(rows.size()) - 1);
        shown_.insert(shown_.begin() + at, rows.begin(), rows.end());
        numberShown(static_cast<std::size_t>(at));
        endInsertRows();
        inserted += static_cast<int>(rows.size());
    }
}

void LockListProxy::insertIntoOrder(std::vector<int>& rows) {
    std::sort(rows.begin(), rows.end(), [this](int a, int b) { return before(a, b); });
    // Each row's place by binary search (after the previous one's), then one merge.
    std::vector<std::ptrdiff_t> at;
    at.reserve(rows.size());
    for (int row : rows)
        at.push_back(std::partition_point(order_.begin() + (at.empty() ? 0 : at.back()),
                                          order_.end(),
                                          [&](int other) { return before(other, row); }) -
                     order_.begin());
    if (at.front() == at.back()) {
        order_.insert(order_.begin() + at.front(), rows.begin(), rows.end());
        return;
    }
    std::vector<int> merged;
    merged.reserve(std::max(order_.capacity(), order_.size() + rows.size()));
    std::ptrdiff_t from = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        merged.insert(merged.end(), order_.begin() + from, order_.begin() + at[i]);
        merged.push_back(rows[i]);
        from = at[i];
    }
    merged.insert(merged.end(), order_.begin() + from, order_.end());
    order_.swap(merged);
}

void LockListProxy::sourceRowsAboutToBeRemoved(const QModelIndex& parent, int first, int last) {
    if (parent.isValid())
        return;
    std::vector<int> proxyRows;
    for (int row = first; row <= last; ++row)
        if (proxyRows_[row] >= 0)
            proxyRows.push_back(proxyRows_[row]);
    std::sort(proxyRows.begin(), proxyRows.end());
    const auto runs = runsOf(proxyRows);
    const auto hide = [&] {
        for (int row = first; row <= last; ++row)
            matches_[row] = 0;
    };
    if (runs.size() > MaxRunSignals) {
        changeLayout([&] {
            hide();
            showMatches();
        });
        return;
    }
    hide();
    for (auto run = runs.rbegin(); run != runs.rend(); ++run) {
        beginRemoveRows({}, run->first, run->second);
        for (int proxyRow = run->first; proxyRow <= run->second; ++proxyRow)
            proxyRows_[shown_[proxyRow]] = -1;
        shown_.erase(shown_.begin() + run->first, shown_.begin() + run->second + 1);
        numberShown(static_cast<std::size_t>(run->first));
        endRemoveRows();
    }
}

void LockListProxy::sourceRowsRemoved(const QModelIndex& parent, int first, int last) {
    if (parent.isValid())
        return;
    const int count = last - first + 1;
    std::erase_if(order_, [&](int row) { return row >= first && row <= last; });
    for (int& row : order_)
        row -= row > last ? count : 0;
    for (int& row : shown_)
        row -= row > last ? count : 0;
    const auto erase = [&](auto& byRow) {
        if (!byRow.empty())
            byRow.erase(byRow.begin() + first, byRow.begin() + last + 1);
    };
    folded_.erase(static_cast<std::size_t>(first), static_cast<std::size_t>(last));
    erase(matches_);
    erase(numberKeys_);
    erase(byteKeys_);
    erase(proxyRows_);
}

void LockListProxy::sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                      const QList<int>& roles) {
    if (topLeft.parent().isValid() || !topLeft.isValid())
        return;
    const int first = topLeft.row(), last = bottomRight.row();
    const auto covers = [&](int column) {
        return column >= topLeft.column() && column <= bottomRight.column();
    };
    // Rows whose sort key changed (a TTL's key does not change as it counts down: a tick reads
    // no key and moves nothing). The filter is not asked again: a row's name never changes, as
    // a lock is its name, and folding it anew at each change of its holder wasted its old fold.
    std::vector<int> moved;
    if (covers(sortColumn_) && roles != LockListModel::countdownRoles())
        for (int row = first; row <= last; ++row)
            if (takeKey(row))
                moved.push_back(row);
    if (!moved.empty()) {
        changeLayout([&] {
            if (moved.size() * 8 > order_.size()) {
                sortRows();
            } else { // out of the order, then back at their places
                std::erase_if(order_, [&](int row) {
                    return std::binary_search(moved.begin(), moved.end(), row);
                });
                insertIntoOrder(moved);
            }
            showMatches();
        });
    }
    forwardDataChanged(first, last, topLeft.column(), bottomRight.column(), roles);
}

void LockListProxy::forwardDataChanged(int first, int last, int firstColumn, int lastColumn,
                                       const QList<int>& roles) {
    if (shown_.empty())
        return;
    std::vector<std::pair<int, int>> runs;
    if (first == 0 && static_cast<std::size_t>(last) + 1 == proxyRows_.size()) {
        runs.emplace_back(0, static_cast<int>(shown_.size()) - 1); // every row: one range
    } else {
        std::vector<int> proxyRows;
        for (int row = first; row <= last; ++row)
            if (proxyRows_[row] >= 0)
                proxyRows.push_back(proxyRows_[row]);
        std::sort(proxyRows.begin(), proxyRows.end());
        runs = runsOf(proxyRows);
        if (runs.size() > MaxRunSignals) // scattered by the sort: one range around them all
            runs = {{runs.front().first, runs.back().second}};
    }
    for (const auto& [top, bottom] : runs)
        emit dataChanged(index(top, firstColumn), index(bottom, lastColumn), roles);
}

void LockListProxy::sourceLayoutAboutToBeChanged() {
    emit layoutAboutToBeChanged();
    layoutProxy_ = persistentIndexList();
    layoutSource_.clear();
    for (const QModelIndex& index : std::as_const(layoutProxy_))
        layoutSource_ << QPersistentModelIndex(mapToSource(index));
}

void LockListProxy::sourceLayoutChanged() {
    rebuild();
    QModelIndexList after;
    for (const QPersistentModelIndex& source : std::as_const(layoutSource_))
        after << mapFromSource(source);
    changePersistentIndexList(layoutProxy_, after);
    layoutProxy_.clear();
    layoutSource_.clear();
    emit layoutChanged();
}

QModelIndex LockListProxy::mapToSource(const QModelIndex& proxyIndex) const {
    if (!locks_ || !proxyIndex.isValid() || proxyIndex.model() != this ||
        static_cast<std::size_t>(proxyIndex.row()) >= shown_.size())
        return {};
    return locks_->index(shown_[proxyIndex.row()], proxyIndex.column());
}

QModelIndex LockListProxy::mapFromSource(const QModelIndex& sourceIndex) const {
    if (!locks_ || !sourceIndex.isValid() || sourceIndex.model() != locks_ ||
        static_cast<std::size_t>(sourceIndex.row()) >= proxyRows_.size())
        return {};
    const int row = proxyRows_[sourceIndex.row()];
    return row < 0 ? QModelIndex() : index(row, sourceIndex.column());
}

QModelIndex LockListProxy::index(int row, int column, const QModelIndex& parent) const {
    return hasIndex(row, column, parent) ? createIndex(row, column) : QModelIndex();
}

QModelIndex LockListProxy::parent(const QModelIndex&) const {
    return {};
}

int LockListProxy::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(shown_.size());
}

int LockListProxy::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !locks_ ? 0 : locks_->columnCount();
}

bool LockListProxy::hasChildren(const QModelIndex& parent) const {
    return rowCount(parent) > 0 && columnCount(parent) > 0;
}

QVariant LockListProxy::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && locks_)
        return locks_->headerData(section, orientation, role);
    return QAbstractItemModel::headerData(section, orientation, role);
}

} // namespace lockscope
