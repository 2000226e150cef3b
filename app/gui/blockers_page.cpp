#include "app/gui/blockers_page.h"

#include "app/core/blockers_model.h"
#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "etcdclient/hex_id.h"
#include "widgets/wait_graph_view.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

namespace lockscope {

namespace {

QString leaseText(qint64 lease) {
    return QString::fromStdString(etcd::leaseHex(lease));
}

// A deadlock's id: its sessions, which stay the same while it lasts.
QString idOf(const etcd::Deadlock& deadlock) {
    QStringList sessions;
    for (const etcd::SessionId& session : deadlock.sessions)
        sessions << (session.lease != 0 ? leaseText(session.lease)
                                        : QString::fromStdString(displayKey(session.key)));
    return sessions.join(',');
}

// A deadlock's rows in the alarm colour: it never ends by itself.
class DeadlockRowsInRed : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.data(BlockersModel::DeadlockRole).toBool())
            option->palette.setColor(QPalette::Text, QColor(0xc6, 0x28, 0x28));
    }
};

} // namespace

BlockersPage::BlockersPage(QWidget* parent)
    : QWidget(parent)
    , model_(new BlockersModel(this))
    , summary_(new QLabel(this))
    , view_(new QTreeView(this))
    , graphView_(new WaitGraphView)
    , break_(new QPushButton(tr("Break deadlock…"), this))
    , unmark_(new QPushButton(tr("Unmark"), this)) {
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* note = new QLabel(
        tr("A session is a lease: Go's concurrency.Session puts all of a client's locks on one, "
           "so a lease that holds one lock and waits in another is one client holding one while "
           "it waits for the other. Waiters that hold no key (single-key locks, as python-etcd3, "
           "node etcd3's lock() and tooz take them) wait invisibly and are not shown. The "
           "session selected is marked in amber on the Locks page and the Stage."),
        this);
    note->setWordWrap(true);
    note->setEnabled(false); // the palette's quieter text
    view_->setModel(model_);
    view_->setItemDelegate(new DeadlockRowsInRed(view_));
    view_->setObjectName("blockersView");
    view_->setUniformRowHeights(true);
    view_->setAlternatingRowColors(true);
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->header()->setSectionResizeMode(QHeaderView::Interactive);
    view_->header()->setStretchLastSection(true);
    view_->header()->resizeSection(BlockersModel::Session, 330);
    view_->header()->resizeSection(BlockersModel::Lock, 170);
    view_->header()->resizeSection(BlockersModel::WaitsFor, 330);
    view_->header()->resizeSection(BlockersModel::Blocks, 330);
    break_->setObjectName("breakDeadlockButton");
    break_->setToolTip(tr("Revoke the lease named to end the selected deadlock (asks first)"));
    unmark_->setObjectName("unmarkSessionButton");
    unmark_->setToolTip(tr("Stop marking the selected session's locks and keys on the Locks page "
                           "and the Stage"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(break_);
    buttons->addWidget(unmark_);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(note);
    auto* drawing = new QScrollArea;
    drawing->setWidget(graphView_);
    drawing->setWidgetResizable(true);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(view_);
    split->addWidget(drawing);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    layout->addLayout(buttons);

    connect(break_, &QPushButton::clicked, this, &BlockersPage::breakSelectedDeadlock);
    connect(model_, &QAbstractItemModel::modelReset, view_, &QTreeView::expandAll);
    connect(model_, &QAbstractItemModel::modelReset, this, &BlockersPage::updateButtons);
    connect(model_, &QAbstractItemModel::modelReset, this, &BlockersPage::drawGraph);
    connect(model_, &QAbstractItemModel::modelReset, this, &BlockersPage::showPickedSession);
    connect(model_, &QAbstractItemModel::modelReset, this,
            [this] { spanUnlistedRows(*view_, *model_); });
    connect(unmark_, &QPushButton::clicked, this, &BlockersPage::unmark);
    connect(graphView_, &WaitGraphView::nodeClicked, this, &BlockersPage::selectSession);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &BlockersPage::pickCurrentSession);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &BlockersPage::updateButtons);
    refreshTimer_.setInterval(RefreshIntervalMs);
    connect(&refreshTimer_, &QTimer::timeout, this, &BlockersPage::refresh);
    refresh();
}

BlockersPage::~BlockersPage() = default;

void BlockersPage::setWorkspace(Workspace* workspace) {
    workspace_ = workspace;
    if (workspace)
        refreshTimer_.start();
    else
        refreshTimer_.stop();
    refresh();
}

void BlockersPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (behind_)
        refresh();
}

void BlockersPage::refresh() {
    QElapsedTimer took;
    took.start();
    const etcd::WaitForGraph none;
    const etcd::WaitForGraph& graph = workspace_ ? workspace_->lockWatch()->waitForGraph() : none;
    // Hidden, only the deadlocks are looked for (the problems area says when one begins or
    // ends); the tree and its drawing wait until the page is shown. With 10 sessions queued in
    // 1,000 locks each, they kept the GUI thread 80 and 200 ms of every second from whichever
    // tab was shown (lockscope-bench --only window).
    const bool wasBehind = std::exchange(behind_, !isVisible());
    const bool reset = !behind_ && model_->refresh(graph, std::chrono::system_clock::now());
    if (wasBehind && !behind_ && !reset)
        drawGraph(); // the tree is as it was, but the drawing was left behind (a reset draws)
    if (workspace_ && !workspace_->lockWatch()->graphKept()) {
        // Nothing is known of deadlocks now: those listed stay as they are, neither ended nor
        // begun.
        const LockWatch* watch = workspace_->lockWatch();
        const auto waiting = static_cast<int>(watch->state().waiting);
        summary_->setText(
            tr("%n key(s) waiting: more than %1, too many to follow here every second. "
               "`lockscopectl blockers %2` looks at them once.",
               nullptr, waiting)
                .arg(watch->maxGraphWaits())
                .arg(QString::fromStdString(displayKey(watch->prefix()))));
        updateButtons();
        return;
    }
    if (!behind_) // hidden, the counts would be the tree's, left behind
        summary_->setText(
            tr("%n session(s) waiting", nullptr, static_cast<int>(graph.sessionsWaiting())) +
            QStringLiteral(" · ") +
            tr("%n deadlock(s)", nullptr, static_cast<int>(model_->deadlockCount())) +
            QStringLiteral(" · ") +
            tr("%n root blocker(s)", nullptr, static_cast<int>(model_->rootCount())));
    const std::vector<etcd::Deadlock> hiddenDeadlocks =
        behind_ ? graph.deadlocks() : std::vector<etcd::Deadlock>();
    QSet<QString> now;
    for (const etcd::Deadlock& deadlock : behind_ ? hiddenDeadlocks : model_->deadlocks()) {
        const QString id = idOf(deadlock);
        now.insert(id);
        if (!deadlocksShown_.contains(id))
            emit deadlockBegan(id, tr("Deadlock: %1 wait on each other; revoke lease %2 to break "
                                      "it (Blockers tab)")
                                       .arg(id, leaseText(deadlock.breakBy.lease)));
    }
    for (const QString& id : std::as_const(deadlocksShown_))
        if (!now.contains(id))
            emit deadlockEnded(id);
    deadlocksShown_ = now;
    updateButtons();
    // Hundreds of thousands of sessions waiting take the cycle search seconds (lockscope-bench
    // --only graph): then the page asks less often, so the GUI thread is never busy with it
    // more than a fifth of the time.
    refreshTimer_.setInterval(
        std::max(RefreshIntervalMs, 5 * static_cast<int>(std::min<qint64>(took.elapsed(), 60000))));
}

void BlockersPage::drawGraph() {
    std::vector<WaitGraphView::Node> nodes;
    std::vector<WaitGraphView::Edge> edges;
    std::map<etcd::SessionId, int> placed;
    auto place = [&](const etcd::SessionId& session, int column, bool deadlock) {
        if (auto found = placed.find(session); found != placed.end())
            return found->second;
        if (static_cast<int>(nodes.size()) >= MaxDrawnSessions)
            return -1;
        nodes.push_back({QString::number(session.lease), sessionText(session), column, deadlock});
        return placed[session] = static_cast<int>(nodes.size()) - 1;
    };
    // One arrow from a session to the one it waits on, however many locks it waits in: ten
    // sessions queued in each of 1,000 locks drew 9,000 arrows over the same ten boxes.
    std::map<std::pair<int, int>, std::pair<std::size_t, std::set<std::string>>>
        arrows; // edge index, locks
    auto arrow = [&](int from, int to, const std::string& lock) {
        const auto [drawn, first] =
            arrows.try_emplace({from, to}, edges.size(), std::set<std::string>());
        if (first)
            edges.push_back({from, to, displayKeyText(lock)});
        drawn->second.second.insert(lock);
    };
    auto link = [&](const etcd::Wait& wait) {
        const auto on = placed.find(wait.on);
        const int from =
            on == placed.end()
                ? -1
                : place(wait.waiter, nodes[static_cast<std::size_t>(on->second)].column + 1, false);
        if (from >= 0)
            arrow(from, on->second, wait.lock);
    };
    const etcd::WaitForGraph none;
    const etcd::WaitForGraph& graph = workspace_ ? workspace_->lockWatch()->waitForGraph() : none;
    for (const etcd::Deadlock& deadlock : model_->deadlocks()) {
        for (const etcd::SessionId& session : deadlock.sessions)
            place(session, 0, true);
        for (const etcd::Wait& wait : deadlock.waits)
            if (placed.count(wait.waiter) && placed.count(wait.on))
                arrow(placed[wait.waiter], placed[wait.on], wait.lock);
        // Who waits on the deadlock from outside it is blocked by it for good.
        for (const etcd::SessionId& session : deadlock.sessions)
            for (const etcd::Wait& wait : graph.waitsBehind(session))
                if (!std::binary_search(deadlock.sessions.begin(), deadlock.sessions.end(),
                                        wait.waiter))
                    link(wait);
    }
    for (const etcd::RootBlocker& root : model_->roots()) {
        if (place(root.session, 0, false) < 0)
            break;
        for (const etcd::Wait& wait : graph.waitsBehind(root.session))
            link(wait);
    }
    for (const auto& [ends, drawn] : arrows)
        if (drawn.second.size() > 1)
            edges[drawn.first].lock =
                tr("%1 and %n more lock(s)", nullptr, static_cast<int>(drawn.second.size()) - 1)
                    .arg(edges[drawn.first].lock);
    graphView_->setGraph(std::move(nodes), std::move(edges));
}

void BlockersPage::selectSession(const QString& lease) {
    const QModelIndexList found =
        model_->match(model_->index(0, 0), BlockersModel::LeaseRole, lease.toLongLong(), 1,
                      Qt::MatchExactly | Qt::MatchRecursive | Qt::MatchWrap);
    if (!found.isEmpty()) {
        view_->setCurrentIndex(found.front());
        view_->scrollTo(found.front());
    }
}

void BlockersPage::pickCurrentSession() {
    const QModelIndex current = view_->currentIndex();
    // A row counting the waits not listed has no session: the pick stays.
    if (!workspace_ || !current.isValid() || current.data(BlockersModel::UnlistedRole).isValid())
        return;
    workspace_->lockWatch()->pickSession(
        etcd::SessionId{current.data(BlockersModel::LeaseRole).toLongLong(),
                        current.data(BlockersModel::SessionKeyRole).toByteArray().toStdString()});
}

void BlockersPage::showPickedSession() {
    if (!workspace_ || !workspace_->lockWatch()->pickedSession())
        return;
    const etcd::SessionId& picked = *workspace_->lockWatch()->pickedSession();
    const QModelIndexList found =
        model_->match(model_->index(0, 0), BlockersModel::LeaseRole,
                      static_cast<qint64>(picked.lease), -1, Qt::MatchExactly | Qt::MatchRecursive);
    for (const QModelIndex& row : found)
        if (row.data(BlockersModel::SessionKeyRole).toByteArray().toStdString() == picked.key) {
            view_->setCurrentIndex(row);
            return;
        }
}

void BlockersPage::spanUnlistedRows(QTreeView& view, const BlockersModel& model) {
    for (const QModelIndex& row : model.unlistedRows())
        view.setFirstColumnSpanned(row.row(), row.parent(), true);
}

void BlockersPage::unmark() {
    view_->setCurrentIndex({});
    if (workspace_)
        workspace_->lockWatch()->pickSession(std::nullopt);
    updateButtons();
}

QString BlockersPage::summary() const {
    return summary_->text();
}

void BlockersPage::updateButtons() {
    const QModelIndex current = view_->currentIndex();
    const bool canAct = workspace_ && workspace_->lockActions();
    break_->setEnabled(canAct && current.isValid() &&
                       current.data(BlockersModel::DeadlockRole).toBool());
    unmark_->setEnabled(workspace_ && workspace_->lockWatch()->pickedSession());
}

const etcd::Deadlock* BlockersPage::deadlockOf(qint64 lease) const {
    for (const etcd::Deadlock& deadlock : model_->deadlocks())
        if (deadlock.breakBy.lease == lease)
            return &deadlock;
    return nullptr;
}

QString BlockersPage::breakText(const etcd::Deadlock* deadlock, qint64 lease) const {
    if (!deadlock)
        return tr("The deadlock that lease %1 was in has ended: there is nothing to break.")
            .arg(leaseText(lease));
    return tr("Revoke lease %1 to end the deadlock of %2 sessions?\n\netcd deletes every key of "
              "that lease: the %n lock(s) it holds go to their next waiters, and its program "
              "finds its session lost.",
              nullptr, static_cast<int>(deadlock->breakLosesHeld))
        .arg(leaseText(lease))
        .arg(deadlock->sessions.size());
}

void BlockersPage::breakSelectedDeadlock() {
    const QModelIndex current = view_->currentIndex();
    if (!workspace_ || !workspace_->lockActions() || !current.isValid() ||
        !current.data(BlockersModel::DeadlockRole).toBool())
        return;
    const qint64 lease = current.data(BlockersModel::BreakLeaseRole).toLongLong();
    const etcd::Deadlock* deadlock = deadlockOf(lease);
    if (!deadlock || lease == 0)
        return; // a key without a lease: Force release on the Locks page deletes it
    // The plan is what the confirmation names: this lease, through one of its waiting keys.
    ForceReleasePlan plan;
    plan.lease = lease;
    for (const etcd::Wait& wait : deadlock->waits)
        if (wait.waiter.lease == lease)
            plan.key = QByteArray::fromStdString(wait.waitingKey);
    QMessageBox confirm(QMessageBox::Warning, tr("Break deadlock"), QString(), QMessageBox::Cancel,
                        this);
    QPushButton* act = confirm.addButton(tr("Revoke lease"), QMessageBox::DestructiveRole);
    confirm.setDefaultButton(QMessageBox::Cancel);
    // The sessions may end the deadlock themselves while the user reads (a lease expires):
    // the text follows it, and refuses once it is gone.
    auto follow = [this, &confirm, act, lease] {
        const etcd::Deadlock* now = deadlockOf(lease);
        confirm.setText(breakText(now, lease));
        act->setEnabled(now != nullptr);
    };
    follow();
    connect(&refreshTimer_, &QTimer::timeout, &confirm, follow);
    confirm.exec();
    if (confirm.clickedButton() != act || !workspace_ || !workspace_->lockActions() ||
        !deadlockOf(lease))
        return;
    workspace_->lockActions()->forceRelease(plan);
}

} // namespace lockscope
