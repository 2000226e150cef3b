#include "app/core/blockers_model.h"

#include "app/core/duration_text.h"
#include "app/core/key_text.h"
#include "etcdclient/hex_id.h"

#include <map>

namespace lockscope {

QString sessionText(const etcd::SessionId& session) {
    return session.lease != 0
               ? BlockersModel::tr("lease %1")
                     .arg(QString::fromStdString(etcd::leaseHex(session.lease)))
               : BlockersModel::tr("key %1 (no lease)").arg(displayKeyText(session.key));
}

BlockersModel::BlockersModel(QObject* parent)
    : QAbstractItemModel(parent) {}

int BlockersModel::Tree::add(Node node, int parent) {
    const int at = static_cast<int>(nodes.size());
    std::vector<int>& siblings =
        parent < 0 ? top : nodes[static_cast<std::size_t>(parent)].children;
    node.parent = parent;
    node.row = static_cast<int>(siblings.size());
    siblings.push_back(at);
    nodes.push_back(std::move(node));
    return at;
}

int BlockersModel::Tree::addListed(Node node, int parent, std::map<int, std::size_t>& unlisted) {
    if (nodes[static_cast<std::size_t>(parent)].children.size() < MaxRowsUnder)
        return add(std::move(node), parent);
    ++unlisted[parent];
    return -1;
}

void BlockersModel::Tree::addUnlistedRows(const std::map<int, std::size_t>& unlisted) {
    for (const auto& [parent, count] : unlisted) {
        Node rest;
        rest.unlisted = count;
        add(rest, parent);
    }
}

bool BlockersModel::refresh(const etcd::WaitForGraph& graph,
                            std::chrono::system_clock::time_point now) {
    now_ = now;
    Tree next;
    std::map<int, std::size_t> unlisted; // by row
    const auto waiterOf = [&graph](const etcd::Wait& wait, bool deadlock) {
        Node waiter;
        waiter.deadlock = deadlock;
        waiter.session = wait.waiter;
        waiter.wait = wait;
        waiter.held = graph.held(wait.waiter);
        return waiter;
    };
    deadlocks_ = graph.deadlocks();
    roots_ = graph.rootBlockers();
    for (const etcd::Deadlock& deadlock : deadlocks_) {
        Node cycle;
        cycle.deadlock = true;
        cycle.cycle = deadlock.sessions.size();
        cycle.session = deadlock.breakBy;
        cycle.held = deadlock.breakLosesHeld;
        cycle.breakBy = deadlock.breakBy;
        const int top = next.add(cycle, -1);
        for (const etcd::Wait& wait : deadlock.waits) {
            Node waiter = waiterOf(wait, true);
            waiter.breakBy = deadlock.breakBy;
            next.addListed(std::move(waiter), top, unlisted);
        }
    }
    for (const etcd::RootBlocker& root : roots_) {
        Node node;
        node.session = root.session;
        node.held = root.held;
        node.blocks = root.transitive;
        node.direct = root.direct;
        // Where each session met so far is: its row, or when it is not listed, the row whose
        // count of the waits not listed takes its waiters too.
        struct Place {
            int row;
            bool listed;
        };
        std::map<etcd::SessionId, Place> placed{{root.session, {next.add(node, -1), true}}};
        // Nearest first: the session each waits on is placed before it. A session that waits on
        // two in the tree shows under both, its own waiters under the first.
        for (const etcd::Wait& wait : graph.waitsBehind(root.session)) {
            const Place on = placed.at(wait.on);
            int at = -1;
            if (on.listed)
                at = next.addListed(waiterOf(wait, false), on.row, unlisted);
            else
                ++unlisted[on.row]; // behind a session not listed
            const Place here = at >= 0 ? Place{at, true} : Place{on.row, false};
            if (auto [known, added] = placed.try_emplace(wait.waiter, here);
                !added && here.listed && !known->second.listed)
                known->second = here;
        }
    }
    next.addUnlistedRows(unlisted);
    if (next == tree_) {
        // The same tree: only the waiting times moved, in every row under a row.
        for (const Node& node : tree_.nodes)
            if (!node.children.empty())
                emit dataChanged(
                    createIndex(0, Waiting, static_cast<quintptr>(node.children.front())),
                    createIndex(static_cast<int>(node.children.size()) - 1, Waiting,
                                static_cast<quintptr>(node.children.back())),
                    {Qt::DisplayRole});
        return false;
    }
    beginResetModel();
    tree_ = std::move(next);
    endResetModel();
    return true;
}

std::vector<QModelIndex> BlockersModel::unlistedRows() const {
    std::vector<QModelIndex> rows;
    for (std::size_t i = 0; i < tree_.nodes.size(); ++i)
        if (tree_.nodes[i].unlisted > 0)
            rows.push_back(createIndex(tree_.nodes[i].row, 0, static_cast<quintptr>(i)));
    return rows;
}

QModelIndex BlockersModel::index(int row, int column, const QModelIndex& parent) const {
    const std::vector<int>& rows =
        parent.isValid() ? tree_.nodes[static_cast<std::size_t>(parent.internalId())].children
                         : tree_.top;
    if (row < 0 || row >= static_cast<int>(rows.size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, static_cast<quintptr>(rows[static_cast<std::size_t>(row)]));
}

QModelIndex BlockersModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    const int parent = tree_.nodes[static_cast<std::size_t>(child.internalId())].parent;
    if (parent < 0)
        return {};
    return createIndex(tree_.nodes[static_cast<std::size_t>(parent)].row, 0,
                       static_cast<quintptr>(parent));
}

int BlockersModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid())
        return static_cast<int>(tree_.top.size());
    if (parent.column() != 0)
        return 0;
    return static_cast<int>(
        tree_.nodes[static_cast<std::size_t>(parent.internalId())].children.size());
}

int BlockersModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant BlockersModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Node& node = tree_.nodes[static_cast<std::size_t>(index.internalId())];
    if (node.unlisted > 0) { // no session of its own
        if (role == UnlistedRole)
            return static_cast<qulonglong>(node.unlisted);
        return role == Qt::DisplayRole && index.column() == Session
                   ? tr("%n more wait(s), not listed here", nullptr,
                        static_cast<int>(node.unlisted))
                   : QVariant();
    }
    switch (role) {
    case LeaseRole: return static_cast<qint64>(node.session.lease);
    case SessionKeyRole: return QByteArray::fromStdString(node.session.key);
    case DeadlockRole: return node.deadlock;
    case BreakLeaseRole:
        return node.breakBy ? QVariant(static_cast<qint64>(node.breakBy->lease)) : QVariant();
    case Qt::DisplayRole: break;
    default: return {};
    }
    const bool cycleRow = node.deadlock && !node.wait;
    switch (index.column()) {
    case Session:
        if (cycleRow)
            return tr("Deadlock: %n session(s) wait on each other", nullptr,
                      static_cast<int>(node.cycle));
        return sessionText(node.session);
    case Lock: return node.wait ? displayKeyText(node.wait->lock) : QString();
    case WaitsFor:
        return node.wait ? QStringLiteral("%1 (%2)").arg(displayKeyText(node.wait->onKey),
                                                         sessionText(node.wait->on))
                         : QString();
    case Blocks:
        if (cycleRow)
            return tr("break: revoke %1 (it holds %n lock(s) others wait for)", nullptr,
                      static_cast<int>(node.held))
                .arg(sessionText(*node.breakBy));
        if (!node.deadlock && node.parent < 0)
            return tr("%n session(s), %1 directly; holds %2 lock(s) others wait for", nullptr,
                      static_cast<int>(node.blocks))
                .arg(node.direct)
                .arg(node.held);
        return QString();
    case Waiting:
        if (!node.wait)
            return QString();
        return durationText(
            std::chrono::duration_cast<std::chrono::milliseconds>(
                std::max(now_ - node.wait->since, std::chrono::system_clock::duration::zero())),
            node.wait->sinceAtLeast);
    default: return {};
    }
}

QVariant BlockersModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Session: return tr("Session");
    case Lock: return tr("Waits in lock");
    case WaitsFor: return tr("Waits for key");
    case Blocks: return tr("Blocks");
    case Waiting: return tr("Waiting");
    default: return {};
    }
}

} // namespace lockscope
