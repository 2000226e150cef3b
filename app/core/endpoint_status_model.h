#pragma once

#include "app/core/endpoint_status.h"

#include <QAbstractTableModel>
#include <QList>

namespace lockscope {

// One row per endpoint, in the order the endpoints were given. Refreshing with the same
// endpoints emits one ranged dataChanged over the rows that changed, never a reset.
class EndpointStatusModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        EndpointColumn,
        MemberIdColumn,
        VersionColumn,
        DbSizeColumn,
        DbSizeInUseColumn,
        IsLeaderColumn,
        RaftTermColumn,
        RaftIndexColumn,
        RevisionColumn,
        RoundTripColumn,
        ErrorColumn,
        ColumnCount
    };
    // The raw value behind a cell (numbers as numbers), for sorting and for tests.
    static constexpr int RawValueRole = Qt::UserRole;

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void setRows(const QList<EndpointStatus>& rows);
    const EndpointStatus& statusAt(int row) const { return rows_.at(row); }

    // Sizes as etcdctl prints them: SI units, e.g. "20 kB", "1.2 MB".
    static QString formatByteSize(qint64 bytes);

private:
    QVariant display(const EndpointStatus& status, int column) const;
    QVariant rawValue(const EndpointStatus& status, int column) const;

    QList<EndpointStatus> rows_;
};

} // namespace lockscope
