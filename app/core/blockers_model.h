#pragma once

#include "etcdclient/locks/lock_types.h"
#include "etcdclient/locks/wait_for_graph.h"

#include <QAbstractItemModel>
#include <chrono>
#include <map>
#include <vector>

namespace lockscope {

// A session as the Blockers page and lockscopectl blockers name it: "lease <hex>", or "key
// <key> (no lease)" for a key without one.
QString sessionText(const etcd::SessionId& session);

// The Blockers page's tree: the deadlocks first (each with the waits that close its cycle),
// then the root blockers, most sessions blocked first, each with its tree of waiters (a session
// under the one it waits on). Rebuilt from the wait-for graph by refresh(), and only when what
// it shows changed, so the user's selection and the expanded branches stay while nothing moves.
// A row shows at most MaxRowsUnder waits under it, then one row counting the rest (and the
// waits behind those), a deadlock's row as a root's: ten sessions queued in each of 1,000 locks
// are 9,000 waits behind one root, a tree the GUI thread took 50-80 ms a second to rebuild
// (lockscope-bench --only window).
class BlockersModel : public QAbstractItemModel {
    Q_OBJECT
public:
    static constexpr std::size_t MaxRowsUnder = 100;

    enum Column { Session, Lock, WaitsFor, Blocks, Waiting, ColumnCount };
    enum Role {
        LeaseRole = Qt::UserRole, // qint64: the row's session's lease (0: a key without one);
                                  // none on a row that counts the waits not listed
        SessionKeyRole,           // QByteArray: for a session without a lease, its key
        DeadlockRole,             // bool: the row is in a deadlock
        BreakLeaseRole,           // qint64: on a deadlock's rows, the lease to revoke to end it
        UnlistedRole,             // qulonglong: on a row counting the waits not listed, the count
    };

    explicit BlockersModel(QObject* parent = nullptr);

    // Reads the graph again; `now` for how long keys have waited.
    // Whether the tree changed (a reset), not only its waiting times.
    bool refresh(const etcd::WaitForGraph& graph, std::chrono::system_clock::time_point now);
    std::size_t deadlockCount() const { return deadlocks_.size(); }
    std::size_t rootCount() const { return roots_.size(); }
    const std::vector<etcd::Deadlock>& deadlocks() const { return deadlocks_; }
    const std::vector<etcd::RootBlocker>& roots() const { return roots_; }
    // The rows counting the waits not listed, for a view to span (their text is their only
    // cell).
    std::vector<QModelIndex> unlistedRows() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node {
        int parent = -1; // index in Tree::nodes; -1 for a top row
        std::vector<int> children;
        int row = 0; // among its parent's children (or the top rows)
        etcd::SessionId session;
        std::optional<etcd::Wait> wait; // the wait that puts it under its parent
        std::size_t held = 0;
        std::size_t blocks = 0; // a root's sessions blocked
        std::size_t direct = 0; // of those, waiting on it directly
        std::size_t cycle = 0;  // a deadlock's sessions
        std::optional<etcd::SessionId> breakBy;
        bool deadlock = false;
        std::size_t unlisted = 0; // a row that counts the waits not listed beside it, or 0
        bool operator==(const Node&) const = default;
    };
    // The rows: nodes by index, each knowing its children; the top rows' indexes.
    struct Tree {
        std::vector<Node> nodes;
        std::vector<int> top;
        int add(Node node, int parent); // its index
        // Adds `node` under `parent` while it has fewer than MaxRowsUnder rows (its index);
        // else counts it in `unlisted`, by row, and gives -1.
        int addListed(Node node, int parent, std::map<int, std::size_t>& unlisted);
        // Under each row of `unlisted`, the row that counts its waits not listed.
        void addUnlistedRows(const std::map<int, std::size_t>& unlisted);
        bool operator==(const Tree&) const = default;
    };

    Tree tree_;
    std::vector<etcd::Deadlock> deadlocks_;
    std::vector<etcd::RootBlocker> roots_;
    std::chrono::system_clock::time_point now_{};
};

} // namespace lockscope
