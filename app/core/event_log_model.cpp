#include "app/core/event_log_model.h"

#include "app/core/json_writer.h"
#include "app/core/key_text.h"
#include "app/core/lock_json.h"
#include "etcdclient/hex_id.h"

#include <QDateTime>
#include <QSaveFile>
#include <numeric>

namespace lockscope {

namespace {

QDateTime toDateTime(std::chrono::system_clock::time_point at) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch());
    return QDateTime::fromMSecsSinceEpoch(ms.count());
}

QDateTime observedTime(const etcd::LockEvent& event) {
    return toDateTime(event.observedAt);
}

QVariant optionalMs(const std::optional<std::chrono::milliseconds>& duration) {
    return duration ? QVariant(static_cast<qint64>(duration->count())) : QVariant();
}

// A lower bound shows as "≥ 1234" (see LockEvent::atLeast); bounds after a gap as "1234–5678",
// or "≤ 5678" when it may have ended at once.
QVariant shownMs(const std::optional<std::chrono::milliseconds>& duration, bool atLeast,
                 const std::optional<std::chrono::milliseconds>& atMost) {
    if (atMost)
        return duration ? QStringLiteral("%1–%2").arg(duration->count()).arg(atMost->count())
                        : QStringLiteral("≤ %1").arg(atMost->count());
    if (!duration || !atLeast)
        return optionalMs(duration);
    return QStringLiteral("≥ %1").arg(duration->count());
}

QByteArray csvField(const QString& text) {
    QByteArray bytes = text.toUtf8();
    if (!bytes.contains(',') && !bytes.contains('"') && !bytes.contains('\n'))
        return bytes;
    return '"' + bytes.replace('"', "\"\"") + '"';
}

} // namespace

EventLogModel::EventLogModel(QObject* parent, std::size_t capacity)
    : QAbstractTableModel(parent)
    , capacity_(std::max<std::size_t>(1, capacity)) {}

void EventLogModel::append(const std::vector<etcd::LockEvent>& events,
                           const std::vector<EventCause>& causes) {
    if (events.empty())
        return;
    // Of a batch larger than the log itself, only its newest events could stay.
    const std::size_t incoming = std::min(events.size(), capacity_);
    const std::size_t needed =
        events_.size() + incoming > capacity_ ? events_.size() + incoming - capacity_ : 0;
    // A view handles a removal at the top in time that grows with its rows (its header and
    // persistent indexes move up), and at 5k events/s a full log paid that on every batch:
    // 40% of the time spent appending. So when full, the oldest tenth goes at once.
    const std::size_t overflow =
        needed == 0 ? 0 : std::min(events_.size(), std::max(needed, capacity_ / 10));
    if (overflow > 0) {
        beginRemoveRows({}, 0, static_cast<int>(overflow) - 1);
        events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(overflow));
        endRemoveRows();
    }
    const int first = rowCount();
    beginInsertRows({}, first, first + static_cast<int>(incoming) - 1);
    for (std::size_t i = events.size() - incoming; i < events.size(); ++i)
        events_.push_back({events[i], causes.empty() ? eventCause(events[i].kind) : causes[i]});
    endInsertRows();
}

void EventLogModel::appendOutage(std::chrono::system_clock::time_point since,
                                 const std::string& reason,
                                 std::chrono::system_clock::time_point at, int64_t revision) {
    etcd::LockEvent event{};
    event.observedAt = at;
    event.revision = revision;
    append({event}, {revision == 0 ? EventCause::OutageBegan : EventCause::OutageEnded});
    LoggedEvent& row = events_.back();
    row.since = since;
    row.reason = reason;
}

void EventLogModel::clear() {
    beginResetModel();
    events_.clear();
    endResetModel();
}

std::deque<LoggedEvent> EventLogModel::take() {
    beginResetModel();
    std::deque<LoggedEvent> taken = std::move(events_);
    events_.clear();
    endResetModel();
    return taken;
}

void EventLogModel::restore(std::deque<LoggedEvent> events) {
    beginResetModel();
    events_ = std::move(events);
    if (events_.size() > capacity_)
        events_.erase(events_.begin(), events_.end() - static_cast<std::ptrdiff_t>(capacity_));
    endResetModel();
}

std::vector<int> EventLogModel::rowsOrAll(const std::optional<std::vector<int>>& rows) const {
    if (rows)
        return *rows;
    std::vector<int> all(events_.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
}

bool EventLogModel::saveCsv(const QString& path, QString& error,
                            const std::optional<std::vector<int>>& rows) const {
    QByteArray csv =
        "observed_at,event,lock,key,lease_hex,revision,waited_ms,held_ms,recovered,at_least,"
        "waited_at_most_ms,held_at_most_ms\n";
    for (int index : rowsOrAll(rows)) {
        const etcd::LockEvent& event = events_[index].event;
        const EventCause cause = events_[index].cause;
        const QStringList fields = {
            QString::fromStdString(isoTime(event.observedAt)),
            QString::fromLatin1(eventCauseName(cause)),
            displayKeyText(event.lock),
            displayKeyText(event.key),
            QString::fromStdString(etcd::leaseHex(event.lease)),
            QString::number(event.revision),
            optionalMs(event.waited).toString(),
            optionalMs(event.held).toString(),
            event.recovered ? QStringLiteral("true") : QStringLiteral("false"),
            event.atLeast ? QStringLiteral("true") : QStringLiteral("false"),
            optionalMs(event.waitedAtMost).toString(),
            optionalMs(event.heldAtMost).toString()};
        QByteArrayList line;
        for (const QString& field : fields)
            line << csvField(field);
        csv += line.join(',') + '\n';
    }
    return save(path, csv, error);
}

bool EventLogModel::saveJson(const QString& path, QString& error,
                             const std::optional<std::vector<int>>& rows) const {
    QByteArray json = "[";
    const char* separator = "\n  ";
    for (int index : rowsOrAll(rows)) {
        const LoggedEvent& row = events_[index];
        json += separator +
                QByteArray::fromStdString(lockEventJson(row.event, eventCauseName(row.cause)));
        separator = ",\n  ";
    }
    json += "\n]\n";
    return save(path, json, error);
}

bool EventLogModel::save(const QString& path, const QByteArray& content, QString& error) const {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size() ||
        !file.commit()) {
        error = file.errorString();
        return false;
    }
    return true;
}

int EventLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(events_.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LoggedEvent& row = events_[index.row()];
    const etcd::LockEvent& event = row.event;
    const EventCause cause = row.cause;
    const bool outage = cause == EventCause::OutageBegan || cause == EventCause::OutageEnded;
    if (role == Qt::TextAlignmentRole) {
        const int column = index.column();
        return column == Revision || column == Waited || column == Held
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    }
    if (role == Qt::ToolTipRole && index.column() == Kind && cause == EventCause::OwnCleanup)
        return tr("Our own cleanup, not a force release: this window's only-if-free attempt "
                  "found the lock held and deleted its own key");
    if (role == Qt::ToolTipRole && index.column() == Recovered && event.recovered)
        return tr("Inferred from a re-list after a gap in the watch, not seen live");
    const bool bounded = index.column() == Waited ? event.waitedAtMost.has_value()
                                                  : index.column() == Held && event.heldAtMost;
    if (role == Qt::ToolTipRole && bounded)
        return tr("It ended during a gap in the watch, somewhere between the last word heard from "
                  "etcd and the re-read: at least the first figure (none when it may have ended "
                  "at once), at most the second.");
    if (role == Qt::ToolTipRole && event.atLeast &&
        (index.column() == Waited ? event.waited.has_value()
                                  : index.column() == Held && event.held.has_value()))
        return tr("It began before LockScope saw the key (already there when the watch started, "
                  "or during a gap in it). etcd keeps no time of creation, so this is a lower "
                  "bound.");
    if (outage && (role == Qt::DisplayRole || role == Qt::ToolTipRole) && index.column() != Time &&
        index.column() != Kind) {
        if (role == Qt::DisplayRole && index.column() == Revision &&
            cause == EventCause::OutageEnded)
            return static_cast<qint64>(event.revision);
        if (role == Qt::DisplayRole && index.column() != Key) // the widest column
            return {};
        const QString since = toDateTime(row.since).toString("HH:mm:ss.zzz");
        return cause == EventCause::OutageBegan
                   ? tr("data stale since %1: %2").arg(since, QString::fromStdString(row.reason))
                   : tr("outage from %1 to %2, re-read at revision %3")
                         .arg(since, observedTime(event).toString("HH:mm:ss.zzz"))
                         .arg(event.revision);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time: return observedTime(event).toString("HH:mm:ss.zzz");
    case Kind: return eventWord(event.recipe, cause);
    case Lock: return displayKeyText(event.lock);
    case Key: return displayKeyText(event.key);
    case Lease: return QString::fromStdString(etcd::leaseHex(event.lease));
    case Revision: return static_cast<qint64>(event.revision);
    case Waited: return shownMs(event.waited, event.atLeast, event.waitedAtMost);
    case Held: return shownMs(event.held, event.atLeast, event.heldAtMost);
    case Recovered: return event.recovered ? tr("recovered") : QString();
    }
    return {};
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time: return tr("Time");
    case Kind: return tr("Event");
    case Lock: return tr("Lock");
    case Key: return tr("Key");
    case Lease: return tr("Lease");
    case Revision: return tr("Revision");
    case Waited: return tr("Waited ms");
    case Held: return tr("Held ms");
    case Recovered: return tr("Recovered");
    }
    return {};
}

} // namespace lockscope
