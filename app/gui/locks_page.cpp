#include "app/gui/locks_page.h"

#include "app/core/event_log_model.h"
#include "app/core/event_words.h"
#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_list_model.h"
#include "app/core/lock_list_proxy.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/picked_session_role.h"
#include "app/core/recipe_text.h"
#include "app/core/workspace.h"
#include "app/gui/lock_actions_bar.h"
#include "widgets/cached_scroll_bar.h"
#include "widgets/export_path.h"
#include "widgets/floored_stretch_column.h"
#include "widgets/holder_card.h"
#include "widgets/plain_text_delegate.h"
#include "widgets/ttl_countdown_delegate.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace lockscope {

namespace {

// Rows of one height, so a view of ten thousand rows never measures them; columns sized once
// by the caller, never ResizeToContents, which scans every row. `stretch` takes the width left;
// keys keep their last segment (the lease, where keys of one lock differ) and are elided before
// it, other text in the middle.
// The rows of the session picked on the Blockers page, marked by every delegate of `view`: its
// own and those of `columns`.
void markPickedSession(QTableView* view, std::initializer_list<int> columns) {
    static_cast<PlainTextDelegate*>(view->itemDelegate())->setMarkRole(PickedSessionRole);
    for (int column : columns)
        static_cast<PlainTextDelegate*>(view->itemDelegateForColumn(column))
            ->setMarkRole(PickedSessionRole);
}

QTableView* tableView(const QString& name, int stretch) {
    auto* view = new QTableView;
    view->setObjectName(name);
    auto* delegate = new PlainTextDelegate(view);
    delegate->setKeepsLastSegment(true);
    view->setItemDelegate(delegate);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    // Qt's raster engine hands fills and lines taller than 96 pixels to its thread pool and
    // waits: a grid's column lines span the view, and with rows changing every frame that wait
    // held the GUI thread longer than the drawing. Alternating rows separate them instead.
    view->setShowGrid(false);
    auto* bar = new CachedScrollBar(Qt::Vertical);
    view->setVerticalScrollBar(bar);
    // The view connected its first bar to these (fetching more rows, the hovered row after a
    // scroll); the scroll area connects a later one only to its own.
    QObject::connect(bar, SIGNAL(actionTriggered(int)), view, SLOT(verticalScrollbarAction(int)));
    QObject::connect(bar, SIGNAL(valueChanged(int)), view,
                     SLOT(verticalScrollbarValueChanged(int)));
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setHighlightSections(false);
    view->setProperty("stretchColumn", stretch);
    return view;
}

// Column widths (0 for the stretched column, which gets what is left and at least
// `stretchFloor`), set again whenever the view's model gets its columns: a header sizes the
// columns of the model it has, and a proxy has none without a source.
void sizeColumns(QTableView* view, std::initializer_list<int> widths, int stretchFloor) {
    const int stretch = view->property("stretchColumn").toInt();
    if (!view->model() || view->model()->columnCount() <= stretch)
        return;
    stretchColumnWithFloor(view, stretch, stretchFloor);
    int column = 0;
    for (int width : widths) {
        if (width > 0)
            view->setColumnWidth(column, width);
        ++column;
    }
}

// A column width that shows `text` whole, with the cell's margins and a sort indicator.
int textWidth(const QTableView* view, const QString& text) {
    return view->fontMetrics().horizontalAdvance(text) + 16;
}

QLineEdit* filterBox(const QString& name, const QString& placeholder) {
    auto* box = new QLineEdit;
    box->setObjectName(name);
    box->setPlaceholderText(placeholder);
    box->setClearButtonEnabled(true);
    return box;
}

// Rows with the box's text in any column, any case.
QSortFilterProxyModel* filterProxy(QLineEdit* box, QObject* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setFilterKeyColumn(-1);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    QObject::connect(box, &QLineEdit::textChanged, proxy,
                     &QSortFilterProxyModel::setFilterFixedString);
    return proxy;
}

QLabel* heading(const QString& text) {
    auto* label = new QLabel(text);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

} // namespace

LocksPage::LocksPage(QWidget* parent)
    : QWidget(parent)
    , lockFilter_(filterBox("lockFilter", tr("Filter locks by name (Ctrl+F)")))
    , loadProgress_(new QProgressBar)
    , lockProxy_(new LockListProxy(this))
    , lockTable_(tableView("lockTable", LockListModel::Ours))
    , detailHeading_(heading(tr("Holder and queue")))
    , holderCard_(new HolderCard)
    , queueTable_(tableView("queueTable", LockQueueModel::Key))
    , lockActionsBar_(new LockActionsBar(queueTable_))
    , eventFilter_(filterBox("eventFilter", tr("Filter events")))
    , eventProxy_(filterProxy(eventFilter_, this))
    , eventTable_(tableView("eventTable", EventLogModel::Key))
    , locksSplitter_(new QSplitter(Qt::Horizontal))
    , detailSplitter_(new QSplitter(Qt::Vertical))
    , refreshPacer_(FollowInterval, [this] { refreshNow(); }) {
    lockTable_->setItemDelegateForColumn(
        LockListModel::Ttl, new TtlCountdownDelegate(TtlRemainingRole, TtlGrantedRole, this));
    // Lock names in the middle: their start and end both say which lock it is, where a key's
    // last segment (its lease) is what tells it from the other keys of its lock.
    lockTable_->setItemDelegateForColumn(LockListModel::Name, new PlainTextDelegate(lockTable_));
    eventTable_->setItemDelegateForColumn(EventLogModel::Lock, new PlainTextDelegate(eventTable_));
    queueTable_->setItemDelegateForColumn(
        LockQueueModel::Ttl, new TtlCountdownDelegate(TtlRemainingRole, TtlGrantedRole, this));
    markPickedSession(lockTable_, {LockListModel::Ttl, LockListModel::Name});
    markPickedSession(queueTable_, {LockQueueModel::Ttl});
    connect(lockFilter_, &QLineEdit::textChanged, lockProxy_, &LockListProxy::setNameFilter);
    lockTable_->setModel(lockProxy_);
    lockTable_->setSortingEnabled(true);
    lockTable_->sortByColumn(LockListModel::Name, Qt::AscendingOrder);
    eventTable_->setModel(eventProxy_);

    locksSplitter_->setObjectName("locksSplitter");
    locksSplitter_->addWidget(createLockPanel());
    locksSplitter_->addWidget(createDetailPanel());
    locksSplitter_->setStretchFactor(0, 2);
    locksSplitter_->setStretchFactor(1, 3);
    locksSplitter_->setSizes({560, 700});

    detailSplitter_->setObjectName("detailSplitter");
    detailSplitter_->addWidget(locksSplitter_);
    detailSplitter_->addWidget(createEventPanel());
    detailSplitter_->setStretchFactor(0, 3);
    detailSplitter_->setStretchFactor(1, 1);
    detailSplitter_->setSizes({520, 200});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(detailSplitter_);

    connect(lockActionsBar_, &LockActionsBar::message, this, &LocksPage::message);
    connect(lockActionsBar_, &LockActionsBar::problem, this, &LocksPage::problem);
    connect(lockActionsBar_, &LockActionsBar::ownWaitMeasured, this, &LocksPage::ownWaitMeasured);
    connect(lockTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &LocksPage::selectLockAt);
    // The first lock to appear is shown at once, so a queue is in view without a click; when
    // the filter hides the lock shown, the first it shows takes its place (a layout change
    // drops the current row without saying so, as a reset does: another prefix, no lock
    // selected).
    const auto showFirstLock = [this] {
        if (lockTable_->selectionModel()->currentIndex().isValid())
            return;
        if (lockProxy_->rowCount() > 0)
            lockTable_->setCurrentIndex(lockProxy_->index(0, 0));
        else
            selectLockAt({});
    };
    connect(lockProxy_, &QAbstractItemModel::rowsInserted, this, showFirstLock);
    connect(lockProxy_, &QAbstractItemModel::layoutChanged, this, showFirstLock);
    connect(lockProxy_, &QAbstractItemModel::modelReset, this, showFirstLock);
    // Follow the newest event unless the user scrolled up to read older ones. Once a frame, not
    // once a batch: each scroll moves the table's pixels in the window's backing store.
    followEvents_.setSingleShot(true);
    followEvents_.setInterval(FollowInterval);
    connect(&followEvents_, &QTimer::timeout, eventTable_, &QTableView::scrollToBottom);
    // Scrolling by hand while a follow is pending means "stop following".
    connect(eventTable_->verticalScrollBar(), &QAbstractSlider::actionTriggered, &followEvents_,
            &QTimer::stop);
    connect(eventProxy_, &QAbstractItemModel::rowsInserted, this, &LocksPage::followNewEvents);
    setWorkspace(nullptr);
}

QWidget* LocksPage::createLockPanel() {
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(heading(tr("Locks")));
    layout->addWidget(lockFilter_);
    loadProgress_->setObjectName("lockLoadProgress");
    loadProgress_->hide();
    layout->addWidget(loadProgress_);
    layout->addWidget(lockTable_, 1);
    return panel;
}

QWidget* LocksPage::createDetailPanel() {
    holderCard_->setObjectName("holderCard");
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* header = new QHBoxLayout;
    header->addWidget(detailHeading_);
    header->addStretch(1);
    header->addWidget(lockActionsBar_);
    layout->addLayout(header);
    layout->addWidget(holderCard_);
    layout->addWidget(queueTable_, 1);
    return panel;
}

QWidget* LocksPage::createEventPanel() {
    auto* exportButton = new QPushButton(tr("Export…"));
    connect(exportButton, &QPushButton::clicked, this, &LocksPage::chooseEventLogFile);
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* header = new QHBoxLayout;
    header->addWidget(heading(tr("Lock events")));
    header->addWidget(eventFilter_, 1);
    header->addWidget(exportButton);
    layout->addLayout(header);
    layout->addWidget(eventTable_, 1);
    return panel;
}

void LocksPage::setWorkspace(Workspace* workspace) {
    if (workspace_) {
        workspace_->lockWatch()->disconnect(this);
        if (workspace_->lockActions())
            workspace_->lockActions()->disconnect(this);
    }
    workspace_ = workspace;
    LockWatch* watch = workspace ? workspace->lockWatch() : nullptr;
    lockProxy_->setLocks(watch ? watch->locks() : nullptr);
    eventProxy_->setSourceModel(watch ? watch->events() : nullptr);
    QItemSelectionModel* oldSelection = queueTable_->selectionModel();
    queueTable_->setModel(watch ? watch->queue() : nullptr);
    delete oldSelection; // setModel made a new one
    // Room for the longest badge, and for a "≥" hold of an hour: never elided in the middle.
    const int badge = textWidth(lockTable_, tr("⚠ %1 +%2").arg(tr("wrong lease")).arg(3));
    const int age = textWidth(queueTable_, tr("held %1").arg("≥ 59 min 59 s"));
    int kind = 0; // the longest recipe's word
    for (const auto recipe :
         {etcd::QueueKind::Mutex, etcd::QueueKind::Election, etcd::QueueKind::RwMutex,
          etcd::QueueKind::SingleKey, etcd::QueueKind::Unknown})
        kind = std::max(kind, textWidth(lockTable_, recipeWord(recipe)));
    // A count, or that a single-key lock's waiters cannot be counted.
    const int waiting = std::max(62, textWidth(lockTable_, LockListModel::tr("not visible")));
    // Our own state's longest words, in whichever language is shown.
    const int ours =
        std::max({textWidth(lockTable_, QCoreApplication::translate("OwnLock", "releasing")),
                  textWidth(lockTable_, QCoreApplication::translate("OwnLock", "campaigning")),
                  textWidth(lockTable_, QCoreApplication::translate("OwnLock", "resigning"))});
    // An RWMutex's positions say the mode too, and the key's last segment (shown) does not.
    const int position =
        textWidth(queueTable_, LockQueueModel::tr("holder, %1").arg(LockQueueModel::tr("write")));
    // The name has a width of its own: stretched, it was what a narrow panel squeezed to "…".
    // Ours, last, takes what is left, never less than its words; past the panel's width the
    // table scrolls.
    const int name = textWidth(lockTable_, QString(24, 'n'));
    lockTable_->horizontalHeader()->setMinimumSectionSize(ours);
    sizeColumns(lockTable_, {name, kind, 100, waiting, 75, badge, 0}, ours);
    // A key keeps its last segment (the lease, which tells the keys of a lock apart) and some of
    // its lock's name.
    const int key = textWidth(queueTable_, QString(26, 'n'));
    sizeColumns(queueTable_, {0, position, 125, 70, 70, age, 130, 130}, key);
    // The lock is the one selected, its kind is in the headings, and the TTL bar shows what
    // was granted.
    queueTable_->setColumnHidden(LockQueueModel::Lock, true);
    queueTable_->setColumnHidden(LockQueueModel::Kind, true);
    queueTable_->setColumnHidden(LockQueueModel::GrantedTtl, true);
    int eventWidth = 0;
    for (const QString& word : eventWords())
        eventWidth = std::max(eventWidth, textWidth(eventTable_, word));
    // The log spans the window: its key needs less than the queue's beside the holder card.
    sizeColumns(eventTable_, {95, eventWidth, 150, 0, 140, 70, 80, 80, 80},
                textWidth(eventTable_, QString(18, 'n')));
    if (watch) {
        connect(watch, &LockWatch::refreshed, this, &LocksPage::refreshSoon);
        connect(queueTable_->selectionModel(), &QItemSelectionModel::currentRowChanged,
                lockActionsBar_, &LockActionsBar::updateLockActions);
        if (lockProxy_->rowCount() > 0)
            lockTable_->setCurrentIndex(lockProxy_->index(0, 0));
    }
    if (LockActions* actions = workspace ? workspace->lockActions() : nullptr)
        connect(actions, &LockActions::ownLockChanged, this, &LocksPage::showHolder);
    lockActionsBar_->setWorkspace(workspace);
    showHolder();
}

// The models change with every batch of events, hundreds a second under load; the card and the
// buttons show what they say once a frame (setting the card's texts each batch took a quarter
// of the GUI thread's time at 5k events/s).
void LocksPage::refreshSoon() {
    if (refreshPacer_.ask())
        refreshNow();
}

void LocksPage::refreshNow() {
    refreshPacer_.noteDone();
    showHolder();
    showLoadProgress();
    lockActionsBar_->updateLockActions();
}

void LocksPage::showLoadProgress() {
    const LockWatch* watch = workspace_ ? workspace_->lockWatch() : nullptr;
    const etcd::LockMonitorState* state = watch ? &watch->state() : nullptr;
    const bool reading = state && state->listingKeys > 0;
    const bool listing = state && !state->pendingLocks.empty();
    loadProgress_->setVisible(reading || listing);
    const auto percent = [](double part, double whole) {
        return whole > 0 ? static_cast<int>(100.0 * part / whole) : 0;
    };
    if (reading) {
        loadProgress_->setValue(percent(state->listedKeys, state->listingKeys));
        loadProgress_->setFormat(tr("Reading the locks from etcd: %L1 of %L2 keys")
                                     .arg(state->listedKeys)
                                     .arg(state->listingKeys));
    } else if (listing) {
        const int shown = watch->locks()->rowCount();
        loadProgress_->setValue(percent(shown, static_cast<double>(state->lockCount)));
        loadProgress_->setFormat(
            tr("Listing the locks: %L1 of %L2").arg(shown).arg(state->lockCount));
    }
}

void LocksPage::focusLockFilter() {
    lockFilter_->setFocus(Qt::ShortcutFocusReason);
    lockFilter_->selectAll();
}

bool LocksPage::exportEventLog(const QString& path, QString& error, EventExport what) const {
    if (!workspace_) {
        error = tr("not connected: there is no event log to export");
        return false;
    }
    const EventLogModel* events = workspace_->lockWatch()->events();
    std::optional<std::vector<int>> rows;
    if (what == EventExport::Shown) {
        rows.emplace();
        for (int row = 0; row < eventProxy_->rowCount(); ++row)
            rows->push_back(eventProxy_->mapToSource(eventProxy_->index(row, 0)).row());
    }
    return path.endsWith(".json", Qt::CaseInsensitive) ? events->saveJson(path, error, rows)
                                                       : events->saveCsv(path, error, rows);
}

void LocksPage::chooseEventLogFile() {
    const QString title = tr("Export event log");
    EventExport what = EventExport::Shown;
    const int shown = eventProxy_->rowCount();
    const int all = eventProxy_->sourceModel() ? eventProxy_->sourceModel()->rowCount() : 0;
    if (shown < all) {
        QMessageBox which(QMessageBox::Question, title,
                          tr("The filter \"%1\" shows %2 of the %3 events.")
                              .arg(eventFilter_->text())
                              .arg(shown)
                              .arg(all),
                          QMessageBox::Cancel, this);
        which.setObjectName("eventExportScope");
        QPushButton* shownOnly =
            which.addButton(tr("Export the %1 shown").arg(shown), QMessageBox::AcceptRole);
        QPushButton* every = which.addButton(tr("Export all %1").arg(all), QMessageBox::AcceptRole);
        which.setDefaultButton(shownOnly);
        which.exec();
        if (which.clickedButton() != shownOnly && which.clickedButton() != every)
            return;
        what = which.clickedButton() == every ? EventExport::All : EventExport::Shown;
    }
    const QString path = QFileDialog::getSaveFileName(
        this, title, defaultExportPath(tr("Lock events"), ".csv"),
        tr("CSV (*.csv);;JSON array of watch --json objects (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (exportEventLog(path, error, what))
        rememberExportFolder(path);
    else
        QMessageBox::warning(this, title, tr("Could not write %1: %2").arg(path, error));
}

void LocksPage::saveState(QSettings& settings) const {
    settings.setValue("window/locksSplitter", locksSplitter_->saveState());
    settings.setValue("window/detailSplitter", detailSplitter_->saveState());
}

void LocksPage::restoreState(const QSettings& settings) {
    locksSplitter_->restoreState(settings.value("window/locksSplitter").toByteArray());
    detailSplitter_->restoreState(settings.value("window/detailSplitter").toByteArray());
}

void LocksPage::followNewEvents() {
    QScrollBar* bar = eventTable_->verticalScrollBar();
    if (!followEvents_.isActive() &&
        bar->value() >= bar->maximum() - 2 * eventTable_->verticalHeader()->defaultSectionSize())
        followEvents_.start();
}

void LocksPage::selectLockAt(const QModelIndex& proxyIndex) {
    if (!workspace_)
        return;
    LockWatch* watch = workspace_->lockWatch();
    const QModelIndex source = lockProxy_->mapToSource(proxyIndex);
    watch->selectLock(source.isValid() ? watch->locks()->lockNameAt(source.row()) : std::string());
    refreshNow(); // what the user picked shows at once
}

void LocksPage::showOwnLock() {
    const LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    const OwnLock* own =
        actions ? actions->ownLock(workspace_->lockWatch()->selectedLockText()) : nullptr;
    if (!own) {
        holderCard_->setOwnLock(std::nullopt);
        return;
    }
    using Tone = HolderCard::OwnLock::Tone;
    const Tone tone =
        own->state == OwnLock::State::Held ? Tone::Good
        : own->state == OwnLock::State::Waiting || own->state == OwnLock::State::Releasing
            ? Tone::Pending
        : own->state == OwnLock::State::Lost ? Tone::Bad
                                             : Tone::Ended;
    holderCard_->setOwnLock(HolderCard::OwnLock{own->summary(), tone});
}

void LocksPage::showHolder() {
    showOwnLock();
    const LockWatch* watch = workspace_ ? workspace_->lockWatch() : nullptr;
    // An election's candidates and their proposals, where a lock's holder and waiters would be.
    const etcd::QueueKind kind = watch ? watch->queue()->kind() : etcd::QueueKind::Mutex;
    const bool election = kind == etcd::QueueKind::Election;
    // An RWMutex's readers share: several may hold at once.
    const bool waitersVisible =
        kind != etcd::QueueKind::SingleKey && kind != etcd::QueueKind::Unknown;
    const QString heading = election                           ? tr("Leader and candidates")
                            : kind == etcd::QueueKind::RwMutex ? tr("Readers, writers and queue")
                            : waitersVisible
                                ? tr("Holder and queue")
                                : tr("Holder (waiters watch the key and are not visible)");
    if (detailHeading_->text() != heading)
        detailHeading_->setText(heading);
    // The proposals in the place of the predecessors, which are a mutex's concern.
    queueTable_->setColumnHidden(LockQueueModel::Value, !election);
    queueTable_->setColumnHidden(LockQueueModel::Predecessor, election);
    if (!watch || watch->selectedLock().empty()) {
        holderCard_->clear(tr("Select a lock to see its holder and queue"));
        return;
    }
    const LockQueueModel* queue = watch->queue();
    if (queue->rowCount() == 0) {
        holderCard_->clear(tr("Nobody holds %1").arg(watch->selectedLockText()));
        return;
    }
    const LockQueueModel::Entry& holder = queue->entryAt(0);
    HolderCard::Holder card{holder.keyText,    holder.leaseHex,      holder.createRevision,
                            queue->ageText(0), std::nullopt,         0,
                            holder.value,      queue->ageToolTip(0), election,
                            holder.lease != 0, recipeWord(kind),     recipeDescription(kind)};
    if (holder.ttl) {
        card.ttlRemainingSeconds = holder.ttl->ttl.remainingAt(queue->now());
        card.ttlGrantedSeconds = holder.ttl->ttl.grantedTtlSeconds;
        // Stale while etcd is silent (every TTL is then), or for want of a look-up in time.
        if (holder.ttl->ttl.stale)
            card.ttlStale = watch->live() ? HolderCard::Holder::Staleness::NotLookedUp
                                          : HolderCard::Holder::Staleness::EtcdSilent;
    }
    holderCard_->setHolder(card);
}

void LocksPage::setReadOnly(bool readOnly) {
    lockActionsBar_->setReadOnly(readOnly);
}

} // namespace lockscope
