#pragma once

#include <QSortFilterProxyModel>

namespace lockscope {

class LockListModel;

// What the lock list shows: the locks whose name contains the filter text (any case), sorted by
// any column, numbers as numbers. It asks the LockListModel directly: through QVariants, a
// listing of 10k locks spent half its GUI-thread time in the proxy's n log n comparisons.
class LockListProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LockListProxy(QObject* parent = nullptr);

    void setLocks(LockListModel* locks); // the source model; null for none
    void setNameFilter(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    LockListModel* locks_ = nullptr;
    QString nameFilter_;
};

} // namespace lockscope
