#include "app/core/lock_keys_model.h"

#include "app/core/key_text.h"
#include "etcdclient/hex_id.h"

#include <cmath>

namespace lockscope {

LockKeysModel::LockKeysModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void LockKeysModel::setState(const etcd::LockMonitorState& state,
                             std::chrono::steady_clock::time_point now) {
    QList<Row> rows;
    for (const auto& [name, queue] : state.locks) {
        for (std::size_t i = 0; i < queue.keys.size(); ++i) {
            const auto& k = queue.keys[i];
            QString ttl;
            if (auto lease = state.leases.find(k.lease); lease != state.leases.end()) {
                const double left = lease->second.remainingAt(now);
                ttl = left < 0 ? QStringLiteral("expired")
                               : QStringLiteral("%1 / %2 s")
                                     .arg(std::ceil(left))
                                     .arg(lease->second.grantedTtlSeconds);
            }
            rows.append({displayKeyText(name), displayKeyText(k.key),
                         QString::fromStdString(etcd::leaseHex(k.lease)),
                         i == 0 ? QString() : displayKeyText(queue.keys[i - 1].key), ttl,
                         static_cast<int>(i), k.createRevision});
        }
    }
    beginResetModel(); // a one-shot snapshot; the live views update in place
    rows_ = std::move(rows);
    endResetModel();
}

int LockKeysModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LockKeysModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LockKeysModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size())
        return {};
    const Row& row = rows_[index.row()];
    if (role == Qt::TextAlignmentRole)
        return index.column() == Position || index.column() == CreateRevision ||
                       index.column() == Ttl
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Lock: return row.lock;
    case Position:
        return row.position == 0 ? QStringLiteral("holder") : QString::number(row.position);
    case Key: return row.key;
    case Lease: return row.lease;
    case CreateRevision: return row.createRevision;
    case Ttl: return row.ttl;
    case WaitsFor: return row.waitsFor;
    }
    return {};
}

QVariant LockKeysModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Lock",       "Position", "Key",      "Lease",
                                  "Create rev", "TTL",      "Waits for"};
    return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

} // namespace lockscope
