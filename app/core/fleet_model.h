#pragma once

#include "app/core/fleet_row.h"

#include <QAbstractTableModel>
#include <vector>

namespace lockscope {

// The fleet overview: one row per open cluster (FleetRow), refreshed in place. Sorts by the
// values (Qt::UserRole), not by the texts shown; an unknown figure sorts lowest.
class FleetModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Cluster,
        State,
        Problems,
        Prefix,
        Locks,
        Held,
        Waiting,
        LongestWait,
        ExpiredLastHour,
        LostLastHour,
        Deadlocks,
        SlowestRoundTrip,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int IdRole = Qt::UserRole + 1;

    explicit FleetModel(QObject* parent = nullptr);

    // Rows keep their place while their id stays; new ids are added, gone ones removed.
    void setRows(std::vector<FleetRow> rows);
    const FleetRow& rowAt(int row) const { return rows_[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::vector<FleetRow> rows_;
};

} // namespace lockscope
