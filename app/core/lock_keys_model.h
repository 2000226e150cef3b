#pragma once

#include "etcdclient/locks/lock_types.h"

#include <QAbstractTableModel>
#include <chrono>

namespace lockscope {

// Every key of every lock, one row each, in queue order: the holder (position 0) then its
// waiters. TTLs count down from the last lookup without asking etcd again.
class LockKeysModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Lock, Position, Key, Lease, CreateRevision, Ttl, WaitsFor, ColumnCount };

    explicit LockKeysModel(QObject* parent = nullptr);

    void setState(const etcd::LockMonitorState& state,
                  std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString lock, key, lease, waitsFor, ttl;
        int position;
        qint64 createRevision;
    };
    QList<Row> rows_;
};

} // namespace lockscope
