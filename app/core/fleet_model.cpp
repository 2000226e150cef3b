#include "app/core/fleet_model.h"

#include "app/core/duration_text.h"

#include <algorithm>

namespace lockscope {

FleetModel::FleetModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void FleetModel::setRows(std::vector<FleetRow> rows) {
    const auto hasId = [](const std::vector<FleetRow>& in, quintptr id) {
        return std::any_of(in.begin(), in.end(),
                           [id](const FleetRow& row) { return row.id == id; });
    };
    for (int row = rowCount() - 1; row >= 0; --row)
        if (!hasId(rows, rows_[static_cast<std::size_t>(row)].id)) {
            beginRemoveRows({}, row, row);
            rows_.erase(rows_.begin() + row);
            endRemoveRows();
        }
    for (FleetRow& fresh : rows) {
        const auto kept = std::find_if(rows_.begin(), rows_.end(),
                                       [&](const FleetRow& row) { return row.id == fresh.id; });
        if (kept != rows_.end()) {
            *kept = std::move(fresh);
            continue;
        }
        beginInsertRows({}, rowCount(), rowCount());
        rows_.push_back(std::move(fresh));
        endInsertRows();
    }
    if (!rows_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int FleetModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FleetModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
QVariant optionalCount(const std::optional<std::size_t>& count, int role) {
    if (!count)
        return role == FleetModel::SortRole ? QVariant(-1) : QVariant(QStringLiteral("—"));
    return QVariant::fromValue(static_cast<qulonglong>(*count));
}
} // namespace

QVariant FleetModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FleetRow& row = rowAt(index.row());
    if (role == IdRole)
        return QVariant::fromValue(row.id);
    if (role == Qt::TextAlignmentRole && (index.column() >= Locks || index.column() == Problems))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool sorting = role == SortRole;
    switch (index.column()) {
    case Cluster: return row.cluster;
    case Prefix: return row.prefix;
    case State: return sorting ? QVariant(row.healthy ? 1 : 0) : QVariant(row.state);
    case Locks: return QVariant::fromValue(static_cast<qulonglong>(row.locks));
    case Held: return optionalCount(row.held, role);
    case Waiting: return QVariant::fromValue(static_cast<qulonglong>(row.waiting));
    case LongestWait:
        if (!row.longestWaitMs)
            return sorting ? QVariant(-1) : QVariant(QStringLiteral("—"));
        return sorting ? QVariant(*row.longestWaitMs)
                       : QVariant(durationText(std::chrono::milliseconds(*row.longestWaitMs)));
    case ExpiredLastHour: return row.expiredLastHour;
    case LostLastHour: return row.lostLastHour;
    case Deadlocks: return row.deadlocks;
    case SlowestRoundTrip:
        if (row.slowestRoundTripMs < 0)
            return sorting ? QVariant(-1.0) : QVariant(QStringLiteral("—"));
        return sorting ? QVariant(row.slowestRoundTripMs)
                       : QVariant(tr("%1 ms").arg(row.slowestRoundTripMs, 0, 'f', 2));
    case Problems: return row.problems;
    }
    return {};
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Cluster: return tr("Cluster");
    case Prefix: return tr("Prefix");
    case State: return tr("State");
    case Locks: return tr("Locks");
    case Held: return tr("Held");
    case Waiting: return tr("Waiting");
    case LongestWait: return tr("Longest wait");
    case ExpiredLastHour: return tr("Expired (1 h)");
    case LostLastHour: return tr("Lost (1 h)");
    case Deadlocks: return tr("Deadlocks");
    case SlowestRoundTrip: return tr("Slowest member");
    case Problems: return tr("Problems");
    }
    return {};
}

} // namespace lockscope
