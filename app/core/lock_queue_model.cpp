#include "app/core/lock_queue_model.h"

#include "app/core/duration_text.h"
#include "app/core/key_text.h"
#include "app/core/picked_session_role.h"
#include "app/core/recipe_text.h"
#include "etcdclient/hex_id.h"

#include <QDateTime>

namespace lockscope {

LockQueueModel::LockQueueModel(QObject* parent)
    : KeyedTableModel(parent)
    , now_(std::chrono::steady_clock::now())
    , wallNow_(std::chrono::system_clock::now()) {}

void LockQueueModel::setQueue(const etcd::LockQueue* queue,
                              const std::map<int64_t, etcd::LeaseTtl>& leases,
                              std::chrono::steady_clock::time_point now,
                              std::chrono::system_clock::time_point wallNow) {
    std::vector<Entry> next;
    if (queue) {
        const QString lockText = displayKeyText(queue->name);
        const std::size_t holders = queue->holderCount();
        next.reserve(queue->keys.size());
        for (std::size_t i = 0; i < queue->keys.size(); ++i) {
            const etcd::LockKey& key = queue->keys[i];
            const etcd::LockKey* waitsOn = queue->waitsOn(i);
            next.push_back({key.key + '@' + std::to_string(key.createRevision), key.key,
                            displayKeyText(key.key), lockText, key.lease,
                            QString::fromStdString(etcd::leaseHex(key.lease)), key.createRevision,
                            shortValueText(key.value), key.enqueuedAt, key.acquiredAt,
                            LeaseCountdown::of(leases, key.lease), key.enqueuedBeforeSeen,
                            key.acquiredBeforeSeen, i < holders, key.mode,
                            waitsOn ? displayKeyText(waitsOn->key) : QString()});
        }
    }
    now_ = now;
    wallNow_ = wallNow;
    syncRows(rows_, std::move(next), true);
    const etcd::QueueKind kind = queue ? queue->kind() : etcd::QueueKind::Mutex;
    if (kind != kind_) { // the same keys read differently: every row and the headers
        kind_ = kind;
        if (!rows_.empty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    }
}

void LockQueueModel::setOwnKey(const std::string& key) {
    if (key == ownKey_)
        return;
    ownKey_ = key;
    if (!rows_.empty())
        emit dataChanged(index(0, Position), index(rowCount() - 1, Position));
}

void LockQueueModel::setPickedSession(const std::optional<etcd::SessionId>& session) {
    if (session == picked_)
        return;
    picked_ = session;
    if (!rows_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {PickedSessionRole});
}

void LockQueueModel::tick(std::chrono::steady_clock::time_point now,
                          std::chrono::system_clock::time_point wallNow) {
    now_ = now;
    wallNow_ = wallNow;
    if (!rows_.empty())
        emit dataChanged(index(0, Ttl), index(rowCount() - 1, Waiting));
}

std::chrono::milliseconds LockQueueModel::ageOf(int row) const {
    const Entry& entry = rows_[row];
    const auto since = heldSince(entry) ? *entry.acquiredAt : entry.enqueuedAt;
    return std::chrono::duration_cast<std::chrono::milliseconds>(wallNow_ - since);
}

bool LockQueueModel::ageIsLowerBound(int row) const {
    const Entry& entry = rows_[row];
    return heldSince(entry) ? entry.acquiredBeforeSeen : entry.enqueuedBeforeSeen;
}

QString LockQueueModel::ageText(int row) const {
    return durationText(ageOf(row), ageIsLowerBound(row));
}

QString LockQueueModel::ageToolTip(int row) const {
    if (!ageIsLowerBound(row))
        return {};
    const Entry& entry = rows_[row];
    const bool held = heldSince(entry);
    const QString seen = QDateTime::fromMSecsSinceEpoch(
                             std::chrono::duration_cast<std::chrono::milliseconds>(
                                 (held ? *entry.acquiredAt : entry.enqueuedAt).time_since_epoch())
                                 .count())
                             .toString("HH:mm:ss");
    if (election())
        return held ? tr("It already led the election when LockScope first saw it, at %1. etcd "
                         "keeps no time of creation, so it has led at least this long.")
                          .arg(seen)
                    : tr("It was already a candidate when LockScope first saw it, at %1. etcd "
                         "keeps no time of creation, so it has been one at least this long.")
                          .arg(seen);
    return held ? tr("It already held the lock when LockScope first saw it, at %1. etcd keeps no "
                     "time of creation, so it has held it at least this long.")
                      .arg(seen)
                : tr("It was already waiting when LockScope first saw it, at %1. etcd keeps no "
                     "time of creation, so it has waited at least this long.")
                      .arg(seen);
}

QString LockQueueModel::modeText(etcd::KeyMode mode) {
    return mode == etcd::KeyMode::Read    ? tr("read")
           : mode == etcd::KeyMode::Write ? tr("write")
                                          : QString();
}

int LockQueueModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LockQueueModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LockQueueModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const Entry& entry = rows_[row];
    if (role == PickedSessionRole)
        return picked_ && *picked_ == etcd::SessionId::of(entry.lease, entry.key);
    if (index.column() == Ttl)
        return entry.ttl ? entry.ttl->data(now_, role) : QVariant();
    if (role == Qt::TextAlignmentRole) {
        const bool numeric = index.column() == Position || index.column() == CreateRevision ||
                             index.column() == Waiting || index.column() == GrantedTtl;
        return numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    }
    if (role == Qt::ToolTipRole && index.column() == CreateRevision)
        return election() ? tr("The create revision of this key: the lowest leads")
                          : tr("Fencing token: the create revision of this key");
    if (role == Qt::ToolTipRole && index.column() == Value && !entry.value.isEmpty())
        return entry.value;
    if (role == Qt::ToolTipRole && index.column() == Waiting) {
        const QString why = ageToolTip(row);
        return why.isEmpty() ? QVariant() : QVariant(why);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Position: {
        const QString position = kind_ == etcd::QueueKind::RwMutex
                                     ? entry.holds ? tr("holder, %1").arg(modeText(entry.mode))
                                                   : tr("%1, %2").arg(row).arg(modeText(entry.mode))
                                 : row > 0    ? QString::number(row)
                                 : election() ? tr("leader")
                                              : tr("holder");
        return !ownKey_.empty() && entry.key == ownKey_ ? tr("%1 (ours)").arg(position) : position;
    }
    case Key: return entry.keyText;
    case Lease: return entry.leaseHex;
    case CreateRevision: return static_cast<qint64>(entry.createRevision);
    case Waiting:
        if (!entry.holds)
            return ageText(row);
        return election() ? tr("leading %1").arg(ageText(row)) : tr("held %1").arg(ageText(row));
    case Predecessor: return entry.waitsOnText;
    case Value: return entry.value;
    case Lock: return entry.lockText;
    case Kind: return recipeWord(kind_);
    case GrantedTtl:
        return entry.ttl ? tr("%1 s").arg(entry.ttl->ttl.grantedTtlSeconds) : QString();
    }
    return {};
}

QVariant LockQueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Waiting)
        return tr("Since the key appeared, or acquired the lock. \"≥\": it began before "
                  "LockScope saw it, so it has waited or held at least this long");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Position: return tr("Position");
    case Key: return tr("Key");
    case Lease: return tr("Lease");
    case CreateRevision: return tr("Create rev");
    case Ttl: return tr("TTL");
    case Waiting: return election() ? tr("Candidate for") : tr("Waiting for");
    case Predecessor: return tr("Waits on");
    case Value: return election() ? tr("Proposal") : tr("Value");
    case Lock: return tr("Lock");
    case Kind: return tr("Recipe");
    case GrantedTtl: return tr("Granted");
    }
    return {};
}

} // namespace lockscope
