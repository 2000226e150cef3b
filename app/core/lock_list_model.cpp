#include "app/core/lock_list_model.h"

#include "app/core/background_disposal.h"
#include "app/core/key_text.h"
#include "app/core/own_lock.h"
#include "app/core/picked_session_role.h"
#include "app/core/recipe_text.h"

#include <QStringList>
#include <algorithm>
#include <iterator>
#include <limits>
#include <utility>

namespace lockscope {

LockListModel::LockListModel(QObject* parent)
    : QAbstractTableModel(parent)
    , now_(std::chrono::steady_clock::now()) {}

LockListModel::Row LockListModel::rowOf(const etcd::SharedLockQueue& queue,
                                        const etcd::LockMonitorState& state) {
    Row row(queue);
    row.kind = queue->kind();
    row.holders = static_cast<int>(queue->holderCount()); // 0 without keys
    row.waiters = static_cast<int>(queue->keys.size()) - row.holders;
    if (auto found = state.anomalies.find(queue->name); found != state.anomalies.end())
        row.anomalyList = std::make_unique<const std::vector<etcd::Anomaly>>(found->second);
    return row;
}

const std::string& LockListModel::Row::holderValue() const {
    static const std::string none;
    return kind == etcd::QueueKind::Election && holder() ? holder()->value : none;
}

bool LockListModel::Row::showsAsIn(const Row& other) const {
    const auto holderKey = [](const Row& row) {
        return row.holder() ? std::string_view(row.holder()->key) : std::string_view();
    };
    return std::ranges::equal(anomalies(), other.anomalies()) &&
           holderLease() == other.holderLease() && holders == other.holders &&
           waiters == other.waiters && kind == other.kind && inEtcd == other.inEtcd &&
           queue->waitersVisible() == other.queue->waitersVisible() &&
           (queue.sameAs(other.queue) ||
            (id() == other.id() && holderKey(*this) == holderKey(other) &&
             holderValue() == other.holderValue()));
}

QString LockListModel::holderText(const Row& row) {
    return row.holder() ? displayKeyText(row.holder()->key) : QString();
}

QString LockListModel::holderToolTip(const Row& row) {
    const QString holder = holderText(row);
    return row.kind == etcd::QueueKind::Election && row.holder()
               ? tr("Leader %1, proposing %2").arg(holder, displayValueText(row.holderValue()))
           : row.holders > 1
               ? tr("%1 readers share the lock; the first is %2").arg(row.holders).arg(holder)
               : holder;
}

QString LockListModel::anomalyBadge(const Row& row) {
    QStringList words;
    for (const etcd::Anomaly& anomaly : row.anomalies())
        if (const QString word = anomalyWord(anomaly.kind); !words.contains(word))
            words << word;
    if (words.isEmpty())
        return {};
    return words.size() == 1 ? tr("⚠ %1").arg(words.front())
                             : tr("⚠ %1 +%2").arg(words.front()).arg(words.size() - 1);
}

QString LockListModel::anomalyDetails(const Row& row) {
    QStringList details;
    for (const etcd::Anomaly& anomaly : row.anomalies())
        details << tr("%1: %2: %3")
                       .arg(anomalyWord(anomaly.kind), displayKeyText(anomaly.key),
                            QString::fromStdString(anomaly.detail));
    return details.join('\n');
}

QString LockListModel::anomalyWord(etcd::AnomalyKind kind) {
    switch (kind) {
    case etcd::AnomalyKind::NoLease: return tr("no lease");
    case etcd::AnomalyKind::LeaseMismatch: return tr("wrong lease");
    case etcd::AnomalyKind::NotALockKey: return tr("odd key");
    case etcd::AnomalyKind::ExpiredLease: return tr("expired");
    }
    return QString::fromLatin1(etcd::anomalyKindName(kind));
}

bool LockListModel::sortsByNumber(int column) {
    return column == Kind || column == Waiters || column == Ttl || column == Anomalies ||
           column == Ours;
}

double LockListModel::sortNumberAt(int row, int column) const {
    const Row& r = *rows_[static_cast<std::size_t>(row)];
    switch (column) {
    case Kind: return r.inEtcd ? static_cast<double>(r.kind) : std::numeric_limits<double>::max();
    case Waiters: return r.waiters;
    case Ttl: {
        const auto ttl = holderTtl(r);
        if (!ttl)
            return std::numeric_limits<double>::max();
        if (ttl->ttl.ttlSeconds < 0)
            return std::numeric_limits<double>::lowest();
        return std::chrono::duration<double>(ttl->ttl.fetchedAt.time_since_epoch()).count() +
               static_cast<double>(ttl->ttl.ttlSeconds);
    }
    case Anomalies: return static_cast<double>(r.anomalies().size());
    case Ours: {
        const OwnMark* own = ownMarkOf(r);
        return own ? static_cast<double>(own->state) : std::numeric_limits<double>::max();
    }
    }
    return 0;
}

bool LockListModel::sortsByBytes(int column) {
    return column == Holder;
}

bool LockListModel::appendSortBytes(int row, int column, std::string& bytes) const {
    const Row& r = *rows_[static_cast<std::size_t>(row)];
    if (column != Holder || !r.holder())
        return false;
    bytes += r.holder()->key;
    return true;
}

std::optional<LeaseCountdown> LockListModel::holderTtl(const Row& row) const {
    const std::optional<int64_t> lease = row.holderLease();
    return lease ? LeaseCountdown::of(leases_, *lease) : std::nullopt;
}

const LockListModel::OwnMark* LockListModel::ownMarkOf(const Row& row) const {
    if (own_.isEmpty()) // no name to copy for the lookup
        return nullptr;
    const auto own = own_.constFind(QByteArray::fromStdString(row.id()));
    return own == own_.constEnd() ? nullptr : &*own;
}

QString LockListModel::nameAt(int row) const {
    return displayKeyText(lockNameOf(row));
}

LockListModel::Row LockListModel::keylessRow(const std::string& name) {
    etcd::LockQueue queue;
    queue.name = name;
    Row row(std::move(queue));
    row.inEtcd = false;
    return row;
}

std::vector<std::string> LockListModel::ownLockNames() const {
    std::vector<std::string> names;
    names.reserve(static_cast<std::size_t>(own_.size()));
    for (auto own = own_.cbegin(); own != own_.cend(); ++own)
        names.push_back(own.key().toStdString());
    std::sort(names.begin(), names.end());
    return names;
}

void LockListModel::setState(const etcd::LockMonitorState& state,
                             std::chrono::steady_clock::time_point now) {
    if (state.locks.empty()) {
        showNoKeys(state, now);
        return;
    }
    // Every name listed now or before, in order: update() brings each row in line.
    etcd::LockChanges changes;
    changes.leases = !std::equal(leases_.begin(), leases_.end(), state.leases.begin(),
                                 state.leases.end(), [](const auto& a, const auto& b) {
                                     return a.first == b.first &&
                                            LeaseCountdown{a.second} == LeaseCountdown{b.second};
                                 });
    const std::vector<std::string> owned = ownLockNames();
    std::vector<std::string> listed;
    listed.reserve(rows_.size());
    for (const auto& row : rows_)
        listed.push_back(row->id());
    std::vector<std::string> both;
    std::set_union(listed.begin(), listed.end(), owned.begin(), owned.end(),
                   std::back_inserter(both));
    changes.locks.reserve(both.size() + state.locks.size());
    auto lock = state.locks.begin();
    for (const std::string& name : both) {
        for (; lock != state.locks.end() && lock->first < name; ++lock)
            changes.locks.push_back(lock->first);
        if (lock != state.locks.end() && lock->first == name)
            ++lock;
        changes.locks.push_back(name);
    }
    for (; lock != state.locks.end(); ++lock)
        changes.locks.push_back(lock->first);
    update(state, changes, now);
}

void LockListModel::showNoKeys(const etcd::LockMonitorState& state,
                               std::chrono::steady_clock::time_point now) {
    // A reset, not a removal of each row: a million rows' names are not compared, nor their rows
    // freed here.
    beginResetModel();
    disposeInBackground(std::exchange(rows_, {}));
    for (const std::string& name : ownLockNames())
        rows_.push_back(std::make_unique<const Row>(keylessRow(name)));
    leases_ = state.leases;
    now_ = now;
    endResetModel();
}

void LockListModel::expectRows(std::size_t rows) {
    if (rows <= rows_.capacity())
        return;
    rows_.reserve(rows);
    emit rowsExpected(rows);
}

void LockListModel::update(const etcd::LockMonitorState& state, const etcd::LockChanges& changes,
                           std::chrono::steady_clock::time_point now) {
    if (changes.all) {
        setState(state, now);
        return;
    }
    now_ = now;
    // In name order, as the rows are: each change lands at or after the last one's row, so a
    // row noted as changed keeps its index. Each run of neighbouring rows gets its own
    // dataChanged: a sorting proxy re-checks the order of every row in a range, and one range
    // from the first change to the last spanned most of 10k locks under churn.
    std::vector<int> changed;
    // New rows that go in at one place, and neighbouring rows that go, wait here and go in or
    // out at once: a page of a listing brings thousands of neighbours, a re-list may take as
    // many, and views and proxies pay per insertion or removal.
    std::vector<std::unique_ptr<const Row>> arriving;
    int runAt = 0;
    int leaving = 0;
    const auto settleRun = [&] {
        if (!arriving.empty()) {
            beginInsertRows({}, runAt, runAt + static_cast<int>(arriving.size()) - 1);
            rows_.insert(rows_.begin() + runAt, std::make_move_iterator(arriving.begin()),
                         std::make_move_iterator(arriving.end()));
            endInsertRows();
            arriving.clear();
            return true;
        }
        if (leaving > 0) {
            beginRemoveRows({}, runAt, runAt + leaving - 1);
            rows_.erase(rows_.begin() + runAt, rows_.begin() + runAt + leaving);
            endRemoveRows();
            leaving = 0;
            return true;
        }
        return false;
    };
    for (const std::string& name : changes.locks) {
        int at = lowerBound(name);
        bool listed = at < rowCount() && rows_[at]->id() == name;
        // What the row should be: the lock's, or a lock of ours without keys; none otherwise.
        std::unique_ptr<const Row> wanted;
        if (const auto queue = state.locks.find(name); queue != state.locks.end())
            wanted = std::make_unique<const Row>(rowOf(queue->second, state));
        else if (own_.contains(QByteArray::fromStdString(name)))
            wanted = std::make_unique<const Row>(keylessRow(name));
        const bool arrives = wanted && !listed;
        const bool leaves = !wanted && listed;
        // Joins the run when it goes where the run does (insertions at one place, removals of
        // the next row); anything else settles the run first.
        if (!(arrives && !arriving.empty() && at == runAt) &&
            !(leaves && leaving > 0 && at == runAt + leaving) && settleRun()) {
            at = lowerBound(name);
            listed = at < rowCount() && rows_[at]->id() == name;
        }
        if (arrives || leaves) {
            if (arriving.empty() && leaving == 0)
                runAt = at;
            if (arrives)
                arriving.push_back(std::move(wanted));
            else
                ++leaving;
        } else if (wanted) {
            // Replaced even when it shows the same: the old row would keep its queue's old copy.
            if (!rows_[at]->showsAsIn(*wanted))
                changed.push_back(at);
            rows_[at] = std::move(wanted);
        }
    }
    settleRun();
    for (std::size_t first = 0, last = 0; first < changed.size(); first = ++last) {
        while (last + 1 < changed.size() && changed[last + 1] == changed[last] + 1)
            ++last;
        emit dataChanged(index(changed[first], 0), index(changed[last], ColumnCount - 1));
    }
    if (changes.leases) {
        leases_ = state.leases; // the rows look their holder's up: nothing to walk
        if (!rows_.empty())
            emit dataChanged(index(0, Ttl), index(rowCount() - 1, Ttl));
    }
}

void LockListModel::tick(std::chrono::steady_clock::time_point now) {
    now_ = now;
    if (!rows_.empty())
        emit dataChanged(index(0, Ttl), index(rowCount() - 1, Ttl), countdownRoles());
}

const QList<int>& LockListModel::countdownRoles() {
    static const QList<int> roles = {Qt::DisplayRole, TtlRemainingRole};
    return roles;
}

void LockListModel::setOwnLock(const OwnLock& own) {
    const QByteArray name = QByteArray::fromStdString(own.lock);
    if (own.alive() || own.state == OwnLock::State::Releasing || own.state == OwnLock::State::Lost)
        own_.insert(name, {own.state, own.stateName(), own.summary()});
    else
        own_.remove(name);
    showOwnMark(own.lock);
}

void LockListModel::clearOwnLocks() {
    const auto names = own_.keys();
    own_.clear();
    for (const QByteArray& name : names)
        showOwnMark(name.toStdString());
}

void LockListModel::showOwnMark(const std::string& name) {
    const int at = lowerBound(name);
    const bool listed = at < rowCount() && rows_[at]->id() == name;
    const bool marked = own_.contains(QByteArray::fromStdString(name));
    if (!listed && marked) {
        beginInsertRows({}, at, at);
        rows_.insert(rows_.begin() + at, std::make_unique<const Row>(keylessRow(name)));
        endInsertRows();
    } else if (listed && !marked && !rows_[at]->inEtcd) {
        beginRemoveRows({}, at, at);
        rows_.erase(rows_.begin() + at);
        endRemoveRows();
    } else if (listed) {
        emit dataChanged(index(at, Ours), index(at, Ours));
    }
}

std::string LockListModel::lockNameAt(int row) const {
    return row >= 0 && row < rowCount() ? rows_[row]->id() : std::string();
}

void LockListModel::setPickedLocks(std::set<std::string> names) {
    if (names == picked_)
        return;
    std::swap(names, picked_);
    for (const std::set<std::string>* marks : {&names, &picked_}) // unmarked, then marked
        for (const std::string& name : *marks)
            if (const int row = rowOfLock(name); row >= 0)
                emit dataChanged(index(row, 0), index(row, ColumnCount - 1), {PickedSessionRole});
}

int LockListModel::rowOfLock(const std::string& name) const {
    const int at = lowerBound(name);
    return at < rowCount() && rows_[at]->id() == name ? at : -1;
}

int LockListModel::lowerBound(const std::string& name) const {
    const auto found =
        std::lower_bound(rows_.begin(), rows_.end(), name,
                         [](const auto& row, const std::string& n) { return row->id() < n; });
    return static_cast<int>(found - rows_.begin());
}

int LockListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LockListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LockListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = *rows_[index.row()];
    if (role == PickedSessionRole)
        return picked_.count(row.id()) > 0;
    switch (index.column()) {
    case Name:
        return role == Qt::DisplayRole || role == Qt::ToolTipRole
                   ? QVariant(displayKeyText(row.id()))
                   : QVariant();
    case Kind:
        if (!row.inEtcd)
            return {};
        return role == Qt::DisplayRole   ? QVariant(recipeWord(row.kind))
               : role == Qt::ToolTipRole ? QVariant(recipeDescription(row.kind))
                                         : QVariant();
    case Holder:
        return role == Qt::DisplayRole   ? QVariant(holderText(row))
               : role == Qt::ToolTipRole ? QVariant(holderToolTip(row))
                                         : QVariant();
    case Waiters:
        if (!row.queue->waitersVisible() && row.inEtcd) // unknown, which is not 0
            return role == Qt::DisplayRole   ? QVariant(tr("not visible"))
                   : role == Qt::ToolTipRole ? QVariant(invisibleWaitersText())
                                             : QVariant();
        if (role == Qt::DisplayRole)
            return row.waiters;
        return role == Qt::TextAlignmentRole ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                             : QVariant();
    case Ttl: {
        const auto ttl = holderTtl(row);
        return ttl ? ttl->data(now_, role) : QVariant();
    }
    case Anomalies:
        if (role == Qt::DisplayRole)
            return anomalyBadge(row);
        return role == Qt::ToolTipRole && !row.anomalies().empty() ? QVariant(anomalyDetails(row))
                                                                   : QVariant();
    case Ours: {
        const OwnMark* own = ownMarkOf(row);
        if (!own)
            return {};
        return role == Qt::DisplayRole   ? QVariant(own->label)
               : role == Qt::ToolTipRole ? QVariant(own->summary)
                                         : QVariant();
    }
    }
    return {};
}

QVariant LockListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Lock");
    case Kind: return tr("Recipe");
    case Holder: return tr("Holder");
    case Waiters: return tr("Waiting");
    case Ttl: return tr("Holder TTL");
    case Anomalies: return tr("Anomalies");
    case Ours: return tr("Ours");
    }
    return {};
}

} // namespace lockscope
