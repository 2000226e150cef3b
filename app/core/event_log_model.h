#pragma once

#include "app/core/event_words.h"
#include "etcdclient/locks/lock_types.h"

#include <QAbstractTableModel>
#include <deque>
#include <optional>
#include <vector>

namespace lockscope {

// A row of the event log: the event, and why it is there (eventCause(event.kind), unless this
// window knew better). A proclaim's event is its leader's key, as Acquired: the hold goes on.
struct LoggedEvent {
    etcd::LockEvent event;
    EventCause cause;
    // An outage row's (OutageBegan, OutageEnded): the last word heard from etcd, and why the
    // view stopped being live. Its event's time is when it stopped, or was live again, and its
    // revision the one re-read.
    std::chrono::system_clock::time_point since = {};
    std::string reason = {};
};

// The lock events seen since the watch began, oldest first, bounded: past `capacity` the oldest
// tenth of the rows goes (rowsRemoved at the top), so a long session keeps constant memory.
class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Kind, Lock, Key, Lease, Revision, Waited, Held, Recovered, ColumnCount };
    static constexpr std::size_t DefaultCapacity = 10000;

    explicit EventLogModel(QObject* parent = nullptr, std::size_t capacity = DefaultCapacity);

    // `causes` in the order of `events`; none: each event's eventCause(kind).
    void append(const std::vector<etcd::LockEvent>& events,
                const std::vector<EventCause>& causes = {});
    // A row of the view's own: it stopped being live at `at`, what it shows being as of `since`
    // (the last word from etcd), for `reason`; or, with `revision` (not 0), it was re-read at
    // `revision` and is live again from `at`.
    void appendOutage(std::chrono::system_clock::time_point since, const std::string& reason,
                      std::chrono::system_clock::time_point at, int64_t revision = 0);
    void clear();
    // Empties the log and hands its events over, oldest first; restore() puts such events back
    // in place of the log's (a prefix's history, kept while another prefix is watched).
    std::deque<LoggedEvent> take();
    void restore(std::deque<LoggedEvent> events);
    const etcd::LockEvent& eventAt(int row) const { return events_[row].event; }
    EventCause causeAt(int row) const { return events_[row].cause; }

    // The events of `rows` (every event held, when none are given), as CSV with a header line,
    // or as a JSON array of the objects `lockscopectl watch --json` prints. False, with `error`
    // set, when the file cannot be written.
    bool saveCsv(const QString& path, QString& error,
                 const std::optional<std::vector<int>>& rows = std::nullopt) const;
    bool saveJson(const QString& path, QString& error,
                  const std::optional<std::vector<int>>& rows = std::nullopt) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    bool save(const QString& path, const QByteArray& content, QString& error) const;
    std::vector<int> rowsOrAll(const std::optional<std::vector<int>>& rows) const;

    std::deque<LoggedEvent> events_;
    std::size_t capacity_;
};

} // namespace lockscope
