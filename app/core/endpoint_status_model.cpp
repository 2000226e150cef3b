#include "app/core/endpoint_status_model.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace lockscope {

int EndpointStatusModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int EndpointStatusModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EndpointStatusModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const EndpointStatus& status = rows_.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(status, index.column());
    case RawValueRole: return rawValue(status, index.column());
    // How long the failure took tells a refusal (at once) from a hung member (the timeout).
    case Qt::ToolTipRole:
        return status.answered() ? (status.alarms.empty() ? QVariant() : QVariant(status.problem()))
                                 : QVariant(tr("%1\n(failed after %2 ms)")
                                                .arg(status.error)
                                                .arg(status.roundTripMs, 0, 'f', 2));
    case Qt::TextAlignmentRole: {
        const bool text = index.column() == EndpointColumn || index.column() == ErrorColumn;
        return QVariant::fromValue(Qt::AlignVCenter | (text ? Qt::AlignLeft : Qt::AlignRight));
    }
    default: return {};
    }
}

QVariant EndpointStatusModel::headerData(int section, Qt::Orientation orientation, int role) const {
    static const std::array<const char*, ColumnCount> titles = {
        QT_TR_NOOP("Endpoint"),   QT_TR_NOOP("ID"),         QT_TR_NOOP("Version"),
        QT_TR_NOOP("DB size"),    QT_TR_NOOP("DB in use"),  QT_TR_NOOP("Is leader"),
        QT_TR_NOOP("Raft term"),  QT_TR_NOOP("Raft index"), QT_TR_NOOP("Revision"),
        QT_TR_NOOP("Round trip"), QT_TR_NOOP("Error")};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= ColumnCount)
        return {};
    return tr(titles[static_cast<std::size_t>(section)]);
}

void EndpointStatusModel::setRows(const QList<EndpointStatus>& rows) {
    const qsizetype kept = std::min(rows_.size(), rows.size());
    if (rows.size() < rows_.size()) {
        beginRemoveRows({}, static_cast<int>(kept), static_cast<int>(rows_.size() - 1));
        rows_.resize(kept);
        endRemoveRows();
    }
    qsizetype firstChanged = -1;
    qsizetype lastChanged = -1;
    for (qsizetype row = 0; row < kept; ++row) {
        if (rows_[row] == rows[row])
            continue;
        rows_[row] = rows[row];
        if (firstChanged < 0)
            firstChanged = row;
        lastChanged = row;
    }
    if (firstChanged >= 0)
        emit dataChanged(index(static_cast<int>(firstChanged), 0),
                         index(static_cast<int>(lastChanged), ColumnCount - 1));
    if (rows.size() > kept) {
        beginInsertRows({}, static_cast<int>(kept), static_cast<int>(rows.size() - 1));
        rows_.append(rows.mid(kept));
        endInsertRows();
    }
}

QString EndpointStatusModel::formatByteSize(qint64 bytes) {
    static const std::array<const char*, 7> units = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    if (bytes < 10)
        return QStringLiteral("%1 B").arg(bytes);
    const auto exponent = static_cast<std::size_t>(
        std::min(std::floor(std::log10(static_cast<double>(bytes)) / 3), 6.0));
    // As humanize.Bytes: round to one decimal, then print two-digit values whole, half to even.
    const double value = std::floor(bytes / std::pow(1000.0, double(exponent)) * 10 + 0.5) / 10;
    return value < 10 ? QStringLiteral("%1 %2").arg(value, 0, 'f', 1).arg(units[exponent])
                      : QStringLiteral("%1 %2").arg(std::nearbyint(value)).arg(units[exponent]);
}

QVariant EndpointStatusModel::display(const EndpointStatus& status, int column) const {
    if (column == EndpointColumn)
        return status.endpoint;
    if (column == ErrorColumn)
        return status.problem();
    // A bare time beside a member that did not answer read as its answer's round trip; how long
    // the failure took is in the row's tooltip.
    if (column == RoundTripColumn)
        return status.answered() ? QStringLiteral("%1 ms").arg(status.roundTripMs, 0, 'f', 2)
                                 : tr("no answer");
    if (!status.answered())
        return QString(); // the member did not say
    switch (column) {
    case MemberIdColumn: return EndpointStatus::hexId(status.memberId);
    case VersionColumn: return status.version;
    case DbSizeColumn: return formatByteSize(status.dbSize);
    case DbSizeInUseColumn: return formatByteSize(status.dbSizeInUse);
    case IsLeaderColumn: return status.isLeader() ? tr("true") : tr("false");
    default: return rawValue(status, column).toString();
    }
}

QVariant EndpointStatusModel::rawValue(const EndpointStatus& status, int column) const {
    switch (column) {
    case EndpointColumn: return status.endpoint;
    case MemberIdColumn: return status.memberId;
    case VersionColumn: return status.version;
    case DbSizeColumn: return status.dbSize;
    case DbSizeInUseColumn: return status.dbSizeInUse;
    case IsLeaderColumn: return status.isLeader();
    case RaftTermColumn: return status.raftTerm;
    case RaftIndexColumn: return status.raftIndex;
    case RevisionColumn: return status.revision;
    case RoundTripColumn: return status.roundTripMs;
    case ErrorColumn: return status.problem();
    default: return {};
    }
}

} // namespace lockscope
