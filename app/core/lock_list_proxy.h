#pragma once

#include "app/core/folded_names.h"

#include <QAbstractProxyModel>
#include <QPersistentModelIndex>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lockscope {

class LockListModel;

// What the lock list shows: the locks whose name contains the filter text (any case), sorted by
// any column: numbers as numbers (LockListModel::sortNumberAt), holders by their keys' bytes
// (appendSortBytes), other text as text, the Name column in the lock list's own order (the names'
// bytes, as etcd orders keys); rows that tie keep that order. Made for a million locks: the
// sort order of every lock is kept, so a filter change is one pass over it (over the rows shown
// before when the text only grew) and sorting by Name is no sort at all; new rows find their
// places by binary search. Filter and sort changes are layout changes, so a selected lock still
// shown stays selected.
class LockListProxy : public QAbstractProxyModel {
    Q_OBJECT
public:
    explicit LockListProxy(QObject* parent = nullptr);

    void setLocks(LockListModel* locks); // the source model; null for none
    void setNameFilter(const QString& text);
    // Room for `rows` source rows in every array by source row or place (as the source's), kept
    // across sorts.
    void reserve(std::size_t rows);
    std::size_t rowsRoom() const; // the least room of those arrays

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    enum class SortKey { Row, Number, Bytes }; // what the sort column sorts by
    SortKey sortKey() const;
    // A sort key of bytes: in keyBytes_ when the sort took it, else in a string of its own.
    struct ByteKey {
        std::size_t at = 0;
        std::size_t size = 0;
        std::unique_ptr<const std::string> own;
        bool none = true; // a lock nobody holds: after every key
    };
    // A source row's sort key, into numberKeys_ or byteKeys_; whether it changed.
    bool takeKey(int row);
    void takeKeys();
    std::string_view bytesOf(const ByteKey& key) const;
    // Whether source row `a` comes before `b`: by the sort key, then in source order.
    bool before(int a, int b) const;
    bool matches(int row) const;
    // order_ from the keys: every source row in the sort order.
    void sortRows();
    // Puts source rows (not in order_) into order_ at their places; sorts `rows` on the way.
    void insertIntoOrder(std::vector<int>& rows);
    // shown_ and proxyRows_ from order_ and matches_; `narrowed`: only rows shown before match.
    void showMatches(bool narrowed = false);
    // Renumbers proxyRows_ from proxy row `from` on.
    void numberShown(std::size_t from);
    // Everything anew from the source, in a reset.
    void rebuild();
    // Runs `change` (of matches_, order_ or shown_) as one layout change, the persistent indexes
    // following their source rows; rows no longer shown lose theirs.
    template <class Change> void changeLayout(Change change);
    // Emits dataChanged for the shown rows among source rows first..last, a run at a time.
    void forwardDataChanged(int first, int last, int firstColumn, int lastColumn,
                            const QList<int>& roles);

    void sourceRowsInserted(const QModelIndex& parent, int first, int last);
    void sourceRowsAboutToBeRemoved(const QModelIndex& parent, int first, int last);
    void sourceRowsRemoved(const QModelIndex& parent, int first, int last);
    void sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                           const QList<int>& roles);
    void sourceLayoutAboutToBeChanged();
    void sourceLayoutChanged();

    LockListModel* locks_ = nullptr;
    std::string filter_;  // case folded, in UTF-8 (FoldedNames)
    int sortColumn_ = -1; // -1 (unsorted) is the source order, as Name is
    Qt::SortOrder sortOrder_ = Qt::AscendingOrder;
    // By source row:
    FoldedNames folded_;             // the name as shown, case folded
    std::vector<char> matches_;      // whether the name contains the filter text
    std::vector<double> numberKeys_; // the sort key, when sorted by a number
    std::vector<int> proxyRows_;     // the proxy row, -1 when filtered out
    std::vector<ByteKey> byteKeys_;  // the sort key, when sorted by bytes
    // The byte keys of every row when sorted, one after another: a string of its own per row
    // took 25 ms more to make at a million rows, and 15 ms to free at the next sort. Never added
    // to (keys taken later have their own), so no change waits for a million keys to be copied;
    // the bytes of keys changed or gone since stay until the next sort.
    std::string keyBytes_;
    // By place:
    std::vector<int> order_; // every source row in the sort order
    std::vector<int> shown_; // by proxy row: the source row (order_ without filtered-out rows)
    // Across a layout change of the source: the proxy's persistent indexes and their sources.
    QModelIndexList layoutProxy_;
    QList<QPersistentModelIndex> layoutSource_;
    QList<QMetaObject::Connection> connections_;
    std::size_t reservedRows_ = 0;
};

} // namespace lockscope
