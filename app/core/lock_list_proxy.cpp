#include "app/core/lock_list_proxy.h"

#include "app/core/lock_list_model.h"

namespace lockscope {

LockListProxy::LockListProxy(QObject* parent)
    : QSortFilterProxyModel(parent) {}

void LockListProxy::setLocks(LockListModel* locks) {
    locks_ = locks;
    setSourceModel(locks);
}

void LockListProxy::setNameFilter(const QString& text) {
    if (text == nameFilter_)
        return;
    nameFilter_ = text;
    invalidateRowsFilter();
}

bool LockListProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    return nameFilter_.isEmpty() || sourceParent.isValid() || !locks_ ||
           locks_->nameAt(sourceRow).contains(nameFilter_, Qt::CaseInsensitive);
}

bool LockListProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    return locks_->rowLessThan(left.row(), right.row(), left.column());
}

} // namespace lockscope
