#pragma once

#include "app/core/keyed_table_model.h"
#include "app/core/lease_countdown.h"
#include "etcdclient/locks/lock_types.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <chrono>
#include <optional>

namespace lockscope {

// The queue of one lock: the holder (position 0) then its waiters in create-revision order.
// The key comes first: it is what identifies a row, while its position shifts as others go.
// Built for queues of ten thousand: each new queue is diffed against the shown one by key, and
// the clock columns (TTL, waiting) move with one ranged dataChanged per tick.
// The Locks page shows the columns up to Predecessor, or for an election (whose keys are its
// candidates, the first leading, and whose values are their proposals) up to Waiting and Value:
// the wording follows the kind. An RWMutex's leading readers all hold ("holder, read"); each
// waiter says what it asks for and which key it waits on (Predecessor: a reader waits on the
// nearest older writer). lockscopectl's snapshot table, which stacks the queues of many
// locks and has no bar to draw a TTL on, also names the lock, its kind and the lease's granted TTL.
class LockQueueModel : public KeyedTableModel {
    Q_OBJECT
public:
    enum Column {
        Key,
        Position,
        Lease,
        CreateRevision,
        Ttl,
        Waiting,
        Predecessor,
        Value, // an election's proposals
        Lock,
        Kind,
        GrantedTtl,
        ColumnCount
    };

    // One key of the queue, as plain values.
    struct Entry {
        std::string id; // key and create revision: a key deleted and put again is a new entry
        std::string key;
        QString keyText;
        QString lockText;
        int64_t lease = 0;
        QString leaseHex;
        int64_t createRevision = 0;
        QString value;
        std::chrono::system_clock::time_point enqueuedAt{};
        std::optional<std::chrono::system_clock::time_point> acquiredAt;
        std::optional<LeaseCountdown> ttl;
        bool enqueuedBeforeSeen = false; // see etcd::LockKey
        bool acquiredBeforeSeen = false;
        bool holds = false; // the first key, or one of an RWMutex's sharing readers
        etcd::KeyMode mode = etcd::KeyMode::Exclusive;
        QString waitsOnText; // the key whose deletion it waits for; empty for a holder
        bool operator==(const Entry&) const = default;
    };

    explicit LockQueueModel(QObject* parent = nullptr);

    // `queue` null: no lock selected, or it is gone.
    void setQueue(const etcd::LockQueue* queue, const std::map<int64_t, etcd::LeaseTtl>& leases,
                  std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now(),
                  std::chrono::system_clock::time_point wallNow = std::chrono::system_clock::now());
    // Moves the clocks on: one dataChanged over the TTL and waiting columns, nothing else.
    void tick(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now(),
              std::chrono::system_clock::time_point wallNow = std::chrono::system_clock::now());

    const Entry& entryAt(int row) const { return rows_[row]; }
    // How long the entry has held (the holder) or waited (the others), as of the last tick.
    std::chrono::milliseconds ageOf(int row) const;
    // Whether ageOf(row) is a lower bound: it began before LockScope saw the key.
    bool ageIsLowerBound(int row) const;
    // ageOf(row) as text, "≥ 2 min 05 s" when a lower bound; and why it is one (else empty).
    QString ageText(int row) const;
    QString ageToolTip(int row) const;
    std::chrono::steady_clock::time_point now() const { return now_; }
    etcd::QueueKind kind() const { return kind_; }
    // This window's own key in the queue (empty: none): its row says "(ours)".
    void setOwnKey(const std::string& key);
    // The session picked on the Blockers page: its keys' rows are marked
    // (PickedSessionRole).
    void setPickedSession(const std::optional<etcd::SessionId>& session);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    bool election() const { return kind_ == etcd::QueueKind::Election; }
    // Whether the entry's time counts from its acquire: it holds and we saw when.
    static bool heldSince(const Entry& entry) { return entry.holds && entry.acquiredAt; }
    static QString modeText(etcd::KeyMode mode);

    std::vector<Entry> rows_;
    std::string ownKey_;
    std::optional<etcd::SessionId> picked_;
    etcd::QueueKind kind_ = etcd::QueueKind::Mutex;
    std::chrono::steady_clock::time_point now_;
    std::chrono::system_clock::time_point wallNow_;
};

} // namespace lockscope
