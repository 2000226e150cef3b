#pragma once

#include "app/core/lease_countdown.h"
#include "app/core/own_lock.h"
#include "etcdclient/locks/lock_types.h"

#include <QAbstractTableModel>
#include <QHash>
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <vector>

namespace lockscope {

// One row per lock under the watched prefix: its holder, how many wait, the holder's TTL
// counting down, and the anomalies of its keys. Updated in place (rows inserted, removed,
// changed), so a selection survives every update; reset only when no lock key is left. A lock
// of ours that is lost (or not queued yet) keeps a row without keys, so what happened to it
// stays in view.
class LockListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Kind, Holder, Waiters, Ttl, Anomalies, Ours, ColumnCount };

    explicit LockListModel(QObject* parent = nullptr);

    void setState(const etcd::LockMonitorState& state,
                  std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
    // The rows of the locks LockMonitor::update says it copied into `state`, and the TTLs if it
    // copied the leases: at thousands of events a second, an update touches a few locks of many.
    void update(const etcd::LockMonitorState& state, const etcd::LockChanges& changes,
                std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
    // Marks a lock this window waits for or holds, or lost (the Ours column: "lost", with the
    // reason as its tooltip); a lock released or cancelled is ours no more and loses the mark.
    void setOwnLock(const OwnLock& own);
    void clearOwnLocks();
    // The locks the session picked on the Blockers page waits in or blocks: their rows are
    // marked (PickedSessionRole). Empty: none.
    void setPickedLocks(std::set<std::string> names);
    // Moves the countdowns on to `now`: one dataChanged over the TTL column, nothing else, with
    // countdownRoles(): the time left and its text, not when the lease runs out (sortNumberAt).
    void tick(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
    static const QList<int>& countdownRoles();
    // A listing of up to `rows` locks is on its way: room for them now, here and (rowsExpected)
    // in proxies, so no row array is copied to a larger one while it arrives. At half a million
    // rows the arrays of the model and its proxy grew in the same update: 50 ms in one go.
    void expectRows(std::size_t rows);
    std::size_t rowsRoom() const { return rows_.capacity(); }

    // The lock's name as etcd has it (any bytes), for the row; empty when out of range.
    std::string lockNameAt(int row) const;
    // The same of a row in range, not copied: the proxy folds a million of them.
    const std::string& lockNameOf(int row) const {
        return rows_[static_cast<std::size_t>(row)]->id();
    }
    // -1 when no such lock is listed.
    int rowOfLock(const std::string& name) const;
    // The Name column's text of a row (in range).
    QString nameAt(int row) const;
    // Whether `column` sorts by a number (Kind, Waiters, Ttl, Anomalies, Ours), and that number
    // for a row (in range), for LockListProxy. A recipe sorts by its value (mutex, election,
    // RWMutex, single key, unknown; a keyless row last), and our lock by its state (waiting,
    // held, releasing, lost; a lock not ours last), never by a translated word: a word looked up
    // per row took 130 ms of a million. A TTL sorts by when the lease runs out, which the
    // countdown does not change: the expired by when they expired, a lease gone before them and
    // a lock without a TTL after every TTL.
    static bool sortsByNumber(int column);
    // The short word an anomaly's badge shows: "no lease".
    static QString anomalyWord(etcd::AnomalyKind kind);
    double sortNumberAt(int row, int column) const;
    // Whether `column` sorts by bytes (Holder), and those bytes of a row (in range) appended to
    // `bytes`: the holder's key, as etcd orders keys; false, with nothing appended, for a lock
    // nobody holds (it goes after every key). Sorted by its text, escaped per row, a million
    // took 185 ms, and "\xff" went before "a".
    static bool sortsByBytes(int column);
    bool appendSortBytes(int row, int column, std::string& bytes) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void rowsExpected(std::size_t rows);

private:
    // Values, not texts: a row's texts are made when shown. A million rows that each held their
    // name's and holder's texts held 230 MB more; the name's folded text is the proxy's, for its
    // filter.
    struct Row {
        // The lock's queue, shared with the state it came from (a keyless row: a queue of its
        // name alone): the name and the holder's key and value are read from it. Copied into
        // each row, they took 150 bytes of a million-row list's every row.
        explicit Row(etcd::SharedLockQueue queue)
            : queue(std::move(queue)) {}
        etcd::SharedLockQueue queue;
        // Its keys' anomalies, when it has any: nearly every row has none, and an empty vector
        // in each took 24 bytes of a million-row list's every row.
        std::unique_ptr<const std::vector<etcd::Anomaly>> anomalyList;
        int holders = 0; // how many share the lock (an RWMutex's leading readers)
        int waiters = 0;
        // The recipe, as a value: its word and description are the same for every row of a
        // kind, and a copy of each per row was 350 bytes of a million-row list's every row.
        etcd::QueueKind kind = etcd::QueueKind::Mutex; // none for a keyless row (inEtcd)
        bool inEtcd = true;                            // false: a lock of ours with no key now

        const std::string& id() const { return queue->name; } // the lock's name
        const etcd::LockKey* holder() const { return queue->holder(); }
        std::span<const etcd::Anomaly> anomalies() const {
            return anomalyList ? std::span<const etcd::Anomaly>(*anomalyList)
                               : std::span<const etcd::Anomaly>();
        }
        // None without a holder; its TTL is in leases_.
        std::optional<int64_t> holderLease() const {
            return holder() ? std::optional<int64_t>(holder()->lease) : std::nullopt;
        }
        // An election's leader's proposal; empty for other recipes.
        const std::string& holderValue() const;
        // Whether both show the same: a row's cells are changed only when not.
        bool showsAsIn(const Row& other) const;
    };

    static Row rowOf(const etcd::SharedLockQueue& queue, const etcd::LockMonitorState& state);
    std::vector<std::string> ownLockNames() const; // the locks of ours, in name order
    // setState with no lock keys: only the locks of ours, as a reset.
    void showNoKeys(const etcd::LockMonitorState& state, std::chrono::steady_clock::time_point now);
    static Row keylessRow(const std::string& name);
    // The Holder column's text and tooltip; empty without a holder.
    static QString holderText(const Row& row);
    static QString holderToolTip(const Row& row);
    // The Anomalies column's badge ("⚠ no lease +1": the first kind in a word, how many more)
    // and tooltip (one line per anomaly); empty without anomalies.
    static QString anomalyBadge(const Row& row);
    static QString anomalyDetails(const Row& row);
    std::optional<LeaseCountdown> holderTtl(const Row& row) const;
    // After a change of own_[name]: the keyless row of `name` comes or goes, or its cell changes.
    void showOwnMark(const std::string& name);
    // The row of `name`, or where it would go.
    int lowerBound(const std::string& name) const;

    struct OwnMark {
        OwnLock::State state;
        QString label;   // "held"
        QString summary; // OwnLock::summary()
    };
    const OwnMark* ownMarkOf(const Row& row) const; // null when the lock is not ours

    // Each row on the heap: a million rows move as pointers when one goes in at the top or
    // the vector grows (moved whole, they stalled the window for 100 ms).
    std::vector<std::unique_ptr<const Row>> rows_;
    QHash<QByteArray, OwnMark> own_; // by lock name
    std::set<std::string> picked_;
    // The state's, copied when they change: a lease's lookup changes no row, only TTL cells.
    std::map<int64_t, etcd::LeaseTtl> leases_;
    std::chrono::steady_clock::time_point now_;
};

} // namespace lockscope
