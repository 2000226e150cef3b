// The window's wiring (see main_window.h): the clusters open side by side, the menus that act on
// the one shown, and a connection's end that never waits. Each cluster's own flows (its
// connection's life and its lock prefix) are in ClusterView.
#include "app/gui/main_window.h"

#include "app/core/cluster_history_file.h"
#include "app/core/connection_options.h"
#include "app/core/connection_profiles.h"
#include "app/core/fleet_model.h"
#include "app/core/problem_log_model.h"
#include "app/core/recording_thread.h"
#include "app/core/sandbox.h"
#include "app/gui/cluster_view.h"
#include "app/gui/fleet_page.h"
#include "app/gui/help_menu.h"
#include "app/gui/history_replay_window.h"
#include "app/gui/lock_actions_bar.h"
#include "app/gui/sandbox_menu.h"
#include "app/gui/screen_fit.h"
#include "app/gui/stage_page.h"
#include "app/gui/status_messages.h"
#include "app/gui/taskbar_badge.h"
#include "app/gui/view_menu.h"
#include "widgets/connection_dialog.h"
#include "widgets/frame_rate_cap.h"
#include "widgets/problem_list.h"
#include "widgets/recording_settings_dialog.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QListWidget>
#include <QMenuBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QVBoxLayout>

namespace lockscope {

namespace {
// Where the open clusters are kept between runs: one entry each, a profile's name or the
// endpoints of a cluster given without one.
const QString OpenClustersKey = QStringLiteral("clusters/open");
constexpr int ViewRole = Qt::UserRole;
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , problems_(new ProblemLogModel(this))
    , problemList_(new ProblemList)
    , statusMessages_(new StatusMessages(statusBar()))
    , fleetModel_(new FleetModel(this))
    , fleetPage_(new FleetPage(fleetModel_))
    , badge_(new TaskbarBadge(this))
    , sidebar_(new QListWidget)
    , stack_(new QStackedWidget)
    , recordingThread_(std::make_unique<RecordingThread>()) {
    setWindowTitle("LockScope");
    resize(1280, 800);
    new FrameRateCap(this, FrameInterval);
    problemList_->setModel(problems_);
    recordingSettings_ = RecordingSettings::read(QSettings());

    fleetPage_->setObjectName("fleetPage");
    stack_->addWidget(fleetPage_);
    connect(fleetPage_, &FleetPage::clusterChosen, this, [this](quintptr id) {
        for (ClusterView* view : views())
            if (quintptr(view) == id)
                showView(view);
    });

    // The sidebar lists the clusters once there are two; dragged into the order wanted.
    sidebar_->setObjectName("clusterList");
    sidebar_->setDragDropMode(QAbstractItemView::InternalMove);
    sidebar_->setWordWrap(true);
    sidebar_->setMinimumWidth(160);
    sidebar_->setSpacing(3);
    fleetItem_ = new QListWidgetItem(tr("Fleet overview"), sidebar_);
    fleetItem_->setFlags(fleetItem_->flags() & ~Qt::ItemIsDragEnabled);
    connect(sidebar_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (!item)
            return;
        if (auto* view = item->data(ViewRole).value<ClusterView*>())
            showView(view);
        else
            showFleet();
    });

    auto* splitter = new QSplitter;
    splitter->addWidget(sidebar_);
    splitter->addWidget(stack_);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 1000});
    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(problemList_);
    layout->addWidget(splitter, 1);
    setCentralWidget(central);

    showView(newView());
    createMenus();
    restoreSettings();
    refreshFleet();
    connect(problems_, &QAbstractItemModel::rowsInserted, this, &MainWindow::setTitle);
    connect(problems_, &QAbstractItemModel::rowsRemoved, this, &MainWindow::setTitle);
    connect(problems_, &QAbstractItemModel::dataChanged, this, &MainWindow::setTitle);
    fleetTimer_.setInterval(RefreshIntervalMs);
    connect(&fleetTimer_, &QTimer::timeout, this, &MainWindow::refreshFleet);
    fleetTimer_.start();
}

ClusterView* MainWindow::newView() {
    auto* view =
        new ClusterView({problems_, statusMessages_, statusBar(), recordingThread_->thread(), this},
                        recordingSettings_);
    view->setShown(false);
    view->setReadOnly(readOnly_);
    QSettings settings; // the pages' column widths and the like, as last saved
    view->restoreState(settings);
    stack_->addWidget(view);
    auto* item = new QListWidgetItem(sidebar_);
    item->setData(ViewRole, QVariant::fromValue(view));
    item->setFlags(item->flags() & ~Qt::ItemIsDropEnabled);
    connect(view, &ClusterView::workspaceEnding, this, &MainWindow::keepEnding);
    connect(view, &ClusterView::placeChanged, this, &MainWindow::setTitle);
    connect(view, &ClusterView::workspaceChanged, this, [this, view] {
        if (view == current_)
            helpMenu_->setWorkspace(view->workspace());
    });
    sidebar_->setVisible(views().size() > 1);
    return view;
}

QList<ClusterView*> MainWindow::views() const {
    QList<ClusterView*> open;
    for (int row = 0; row < sidebar_->count(); ++row)
        if (auto* view = sidebar_->item(row)->data(ViewRole).value<ClusterView*>())
            open << view;
    return open;
}

QListWidgetItem* MainWindow::itemOf(const ClusterView* view) const {
    for (int row = 0; row < sidebar_->count(); ++row)
        if (sidebar_->item(row)->data(ViewRole).value<ClusterView*>() == view)
            return sidebar_->item(row);
    return nullptr;
}

void MainWindow::showView(ClusterView* view) {
    if (current_ && current_ != view)
        current_->setShown(false);
    current_ = view;
    view->setShown(true);
    stack_->setCurrentWidget(view);
    {
        const QSignalBlocker quiet(sidebar_);
        sidebar_->setCurrentItem(itemOf(view));
    }
    if (!lockMenu_)
        return; // the menus are made after the first view
    viewMenu_->showView(view);
    if (presentationAction_)
        viewMenu_->removeAction(presentationAction_);
    presentationAction_ = view->stagePage()->presentationAction();
    viewMenu_->insertAction(readOnlyAction_, presentationAction_);
    // The Lock menu holds the shown cluster's actions: their shortcuts work on every page of it.
    lockMenu_->clear();
    LockActionsBar* bar = view->locksPage()->lockActionsBar();
    if (lockMenuBar_)
        lockMenu_->removeEventFilter(lockMenuBar_);
    lockMenuBar_ = bar;
    lockMenu_->addActions(bar->lockActions());
    disconnect(describesLockTarget_);
    describesLockTarget_ =
        connect(lockMenu_, &QMenu::aboutToShow, bar, &LockActionsBar::describeTarget);
    bar->describeTargetIn(lockMenu_);
    helpMenu_->setWorkspace(view->workspace());
    setTitle();
}

void MainWindow::showFleet() {
    refreshFleet();
    stack_->setCurrentWidget(fleetPage_);
    // No cluster is shown: the Lock menu's shortcuts must not reach one the user cannot see.
    lockMenu_->clear();
    const QSignalBlocker quiet(sidebar_);
    sidebar_->setCurrentItem(fleetItem_);
}

bool MainWindow::fleetShown() const {
    return stack_->currentWidget() == fleetPage_;
}

void MainWindow::createMenus() {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* connectAction =
        fileMenu->addAction(tr("&Connect…"), this, &MainWindow::chooseConnection);
    connectAction->setObjectName("connectAction");
    connectAction->setShortcut(QKeySequence::Open);
    QAction* closeAction = fileMenu->addAction(tr("Clo&se this cluster"), this, [this] {
        if (fleetShown()) // which one is not to be guessed
            statusMessages_->show(tr("Open the cluster to close first: in the sidebar or the "
                                     "fleet overview"),
                                  10000);
        else
            closeCluster(current_);
    });
    closeAction->setObjectName("closeClusterAction");
    closeAction->setShortcut(QKeySequence("Ctrl+W"));
    auto* exportAction = fileMenu->addAction(
        tr("&Export event log…"), this, [this] { current_->locksPage()->chooseEventLogFile(); });
    exportAction->setObjectName("exportEventLogAction");
    auto* openHistoryAction =
        fileMenu->addAction(tr("Open &history…"), this, &MainWindow::chooseHistory);
    openHistoryAction->setObjectName("openHistoryAction");
    auto* clusterHistoryAction =
        fileMenu->addAction(tr("Open this cluster's histor&y"), this, [this] {
            showView(current_);
            current_->openClusterHistory();
        });
    clusterHistoryAction->setObjectName("openClusterHistoryAction");
    auto* recordingAction =
        fileMenu->addAction(tr("&Recording settings…"), this, &MainWindow::editRecordingSettings);
    recordingAction->setObjectName("recordingSettingsAction");
    auto* rewindAction = fileMenu->addAction(tr("Re&wind to revision…"), this, [this] {
        showView(current_);
        current_->rewindToRevision();
    });
    rewindAction->setObjectName("rewindAction");
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    lockMenu_ = menuBar()->addMenu(tr("&Lock"));
    lockMenu_->setObjectName("lockMenu");
    lockMenu_->setToolTipsVisible(true); // they say whose key Force release and Copy key take

    viewMenu_ = new ViewMenu(current_, menuBar());
    menuBar()->addMenu(viewMenu_);
    readOnlyAction_ = viewMenu_->readOnlyAction();
    connect(readOnlyAction_, &QAction::toggled, this, &MainWindow::setReadOnly);
    connect(viewMenu_->fleetAction(), &QAction::triggered, this, &MainWindow::showFleet);
    connect(viewMenu_, &ViewMenu::viewWanted, this, [this](ClusterView* view) { showView(view); });

    sandboxMenu_ = new SandboxMenu(menuBar());
    menuBar()->addMenu(sandboxMenu_);

    helpMenu_ = new HelpMenu(menuBar(), this);
    menuBar()->addMenu(helpMenu_);
    showView(current_);
}

MainWindow::~MainWindow() {
    // Destroyed without a close (a termination signal, a test's end): the window is going
    // away, so waiting here for etcd's answers blocks nothing anyone sees, and each wait is
    // bounded by its Workspace's deadline. The sandbox's etcd goes last, so no Workspace is
    // left talking to a stopped server.
    closeWhenEnded_ = false;
    fleetTimer_.stop();
    endAll();
    for (Workspace* ending : findChildren<Workspace*>(QString(), Qt::FindDirectChildrenOnly))
        delete ending; // ends and waits
    delete sandbox_;
}

Workspace* MainWindow::workspace() const {
    return current_->workspace();
}

LockWatch* MainWindow::lockWatch() const {
    return current_->lockWatch();
}

LockPrefixDialog* MainWindow::prefixDialog() const {
    return current_->prefixDialog();
}

QToolBar* MainWindow::lockActionsBar() const {
    return current_->lockActionsBar();
}

bool MainWindow::exportEventLog(const QString& path, QString& error,
                                LocksPage::EventExport what) const {
    return current_->locksPage()->exportEventLog(path, error, what);
}

QString MainWindow::historyPath() const {
    return current_->historyPath();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Once: the close that follows the ends would find no cluster connected.
    if (!std::exchange(closing_, true))
        saveSettings();
    endAll();
    if (endingWorkspaces_ > 0) {
        // Closed for real once etcd has confirmed our keys and leases are gone (or the command
        // timeout passed): the window never blocks on the network.
        closeWhenEnded_ = true;
        statusMessages_->show(tr("Releasing our locks before closing…"));
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::endAll() {
    for (ClusterView* view : views())
        view->endWorkspace();
}

void MainWindow::keepEnding(Workspace* ending) {
    ++endingWorkspaces_;
    connect(ending, &Workspace::finished, this, [this, ending] {
        ending->deleteLater();
        if (--endingWorkspaces_ == 0 && closeWhenEnded_) {
            closeWhenEnded_ = false;
            close();
        }
    });
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    current_->saveState(settings);
    // The sandbox is new each time, and a cluster with credentials comes back through its
    // profile only: no password or certificate path is kept here.
    QStringList open;
    for (const ClusterView* view : views()) {
        const Workspace* workspace = view->workspace();
        if (!workspace || view->isSandbox())
            continue;
        if (!view->profile().isEmpty())
            open << "profile:" + view->profile();
        else if (const etcd::ClientOptions& plain = workspace->options();
                 plain.username.empty() && plain.caFile.empty() && plain.certFile.empty())
            open << "endpoints:" + view->name();
    }
    settings.setValue(OpenClustersKey, open);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    fitToScreen(*this); // saved on a larger screen, or by a version whose window could grow
}

void MainWindow::restoreOpenClusters() {
    QSettings settings;
    const QList<ConnectionProfile> profiles = loadProfiles(settings);
    QStringList openNow;
    for (const ClusterView* view : views())
        openNow << (view->profile().isEmpty() ? view->name() : view->profile());
    for (const QString& entry : settings.value(OpenClustersKey).toStringList()) {
        const QString what = entry.section(':', 1);
        if (what.isEmpty() || openNow.contains(what))
            continue;
        QString error;
        std::optional<ConnectionOptions> connection;
        bool readOnly = false;
        if (entry.startsWith("profile:")) {
            for (const ConnectionProfile& profile : profiles)
                if (profile.name == what) {
                    connection = toConnectionOptions(profile, error);
                    readOnly = profile.readOnly;
                }
        } else {
            ConnectionOptions plain;
            plain.client.endpoints.clear();
            for (const QString& endpoint : what.split(", ", Qt::SkipEmptyParts))
                plain.client.endpoints.push_back(endpoint.toStdString());
            connection = plain;
        }
        if (!connection) {
            statusMessages_->show(tr("%1 was open last time and is not any more: %2")
                                      .arg(what, error.isEmpty() ? tr("no such profile") : error),
                                  10000);
            continue;
        }
        addCluster(*connection, entry.startsWith("profile:") ? what : QString(), readOnly);
        openNow << what;
    }
}

ClusterView* MainWindow::addCluster(const ConnectionOptions& connection, const QString& profile,
                                    bool readOnly) {
    // The one view of a window not yet connected takes it.
    ClusterView* view = current_->workspace() || current_->isSandbox() ? newView() : current_;
    view->setProfileReadOnly(readOnly);
    view->setReadOnly(readOnly_);
    showView(view);
    view->openConnection(connection.client, connection.needsPassword, profile);
    refreshFleet();
    return view;
}

void MainWindow::closeCluster(ClusterView* view) {
    if (!view)
        return;
    view->endWorkspace();
    if (views().size() == 1)
        return; // one stays, not connected
    // Its problems stay listed, as a record, but no longer stand: nothing will clear them now.
    bool nameOpenElsewhere = false;
    for (const ClusterView* other : views())
        nameOpenElsewhere = nameOpenElsewhere || (other != view && other->name() == view->name());
    if (!nameOpenElsewhere)
        problems_->recoverCluster(view->name(), QDateTime::currentDateTime(),
                                  tr("the cluster was closed"));
    delete itemOf(view);
    if (view == current_)
        showView(views().first());
    view->deleteLater();
    sidebar_->setVisible(views().size() > 1);
    refreshFleet();
}

void MainWindow::connectTo(const etcd::ClientOptions& options, const QString& profile) {
    current_->connectTo(options, profile, false);
}

void MainWindow::openConnection(const ConnectionOptions& connection, const QString& profile) {
    current_->openConnection(connection.client, connection.needsPassword, profile);
}

void MainWindow::setReadOnly(bool readOnly) {
    readOnly_ = readOnly;
    {
        const QSignalBlocker quiet(readOnlyAction_);
        readOnlyAction_->setChecked(readOnly);
    }
    for (ClusterView* view : views())
        view->setReadOnly(readOnly);
}

void MainWindow::setPrefix(const QString& prefix) {
    current_->setPrefix(prefix);
}

void MainWindow::startLabDemoWhenConnected() {
    current_->startLabDemoWhenConnected();
}

void MainWindow::startSandbox(const QString& etcdProgram, int members) {
    if (sandbox_)
        return; // one a window
    ClusterView* view = current_;
    sandboxAfresh_ = true;
    view->showStarting(tr("Starting sandbox etcd…"));
    sandbox_ = new Sandbox(etcdProgram, members, this);
    // Its view may be closed before it is ready: it then opens in a view of its own.
    const auto viewOf = [this, view = QPointer<ClusterView>(view)] {
        return view ? view.data() : newView();
    };
    connect(sandbox_, &Sandbox::ready, this, [this, viewOf](const QStringList& endpoints) {
        etcd::ClientOptions options;
        options.endpoints.clear();
        for (const QString& endpoint : endpoints)
            options.endpoints.push_back(endpoint.toStdString());
        viewOf()->connectTo(options, {}, true, std::exchange(sandboxAfresh_, false));
        sandboxMenu_->setSandbox(sandbox_);
        refreshFleet();
    });
    connect(sandbox_, &Sandbox::failed, this,
            [viewOf](const QString& message) { viewOf()->showSandboxFailed(message); });
    sandbox_->start();
}

void MainWindow::refreshFleet() {
    // Each summary walks its cluster's locks: not while neither the sidebar (hidden with one
    // cluster) nor the fleet overview shows them. showFleet refreshes first.
    if (sidebar_->isHidden() && !fleetShown())
        return;
    std::vector<FleetRow> rows;
    for (int row = 0; row < sidebar_->count(); ++row) {
        QListWidgetItem* item = sidebar_->item(row);
        const auto* view = item->data(ViewRole).value<ClusterView*>();
        if (!view)
            continue;
        FleetRow summary = view->summary();
        // Three lines: the name, its state, its locks.
        QString state = summary.state;
        if (summary.revision > 0)
            state += tr(" · revision %1").arg(summary.revision);
        QStringList counts{tr("%n lock(s)", nullptr, static_cast<int>(summary.locks)),
                           tr("%n waiting", nullptr, static_cast<int>(summary.waiting))};
        if (summary.problems > 0)
            counts << tr("%n problem(s)", nullptr, summary.problems);
        item->setText((summary.cluster.isEmpty() ? tr("not connected") : summary.cluster) + '\n' +
                      state + '\n' + counts.join(QStringLiteral(" · ")));
        item->setForeground(QColor(summary.healthy ? "#2e7d32" : "#c62828"));
        item->setToolTip(summary.leader.isEmpty() ? QString()
                                                  : tr("Leader: %1").arg(summary.leader));
        rows.push_back(std::move(summary));
    }
    fleetModel_->setRows(std::move(rows));
}

void MainWindow::setTitle() {
    QString title = current_->place().isEmpty() ? QStringLiteral("LockScope")
                                                : tr("LockScope — %1").arg(current_->place());
    const int troubled = problems_->clustersWithStandingProblems();
    if (views().size() > 1 && troubled > 0)
        title += ' ' + tr("(%n cluster(s) with problems)", nullptr, troubled);
    setWindowTitle(title);
    badge_->setCount(troubled);
}

void MainWindow::chooseHistory() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open a recorded lock history"), QString(),
                                     tr("Lock histories (*.db *.sqlite);;All files (*)"));
    if (path.isEmpty())
        return;
    (new HistoryReplayWindow(path, this))->show(); // deletes itself when closed
}

void MainWindow::setRecordingSettings(const RecordingSettings& settings) {
    recordingSettings_ = settings;
    QSettings stored;
    settings.write(stored);
    for (ClusterView* view : views())
        view->setRecordingSettings(settings);
}

void MainWindow::editRecordingSettings() {
    const RecordingSettings& now = recordingSettings_;
    RecordingSettingsDialog dialog({now.on, now.keepDays, now.maxMegabytes},
                                   RecordingSettings::MaxDays, RecordingSettings::MaxMegabytes,
                                   QFileInfo(clusterHistoryPath({})).absolutePath(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const auto values = dialog.values();
    setRecordingSettings({values.on, values.keepDays, values.maxMegabytes});
}

void MainWindow::chooseConnection() {
    QSettings settings;
    ConnectionDialog dialog(
        loadProfiles(settings),
        [](const ConnectionProfile& profile) {
            QString error;
            return toConnectionOptions(profile, error) ? QString() : error;
        },
        this);
    connect(&dialog, &ConnectionDialog::profilesChanged, this,
            [](const QList<ConnectionProfile>& profiles) {
                QSettings store;
                saveProfiles(store, profiles);
            });
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    const auto options = toConnectionOptions(dialog.profile(), error);
    if (!options)
        return;
    addCluster(*options, dialog.profile().name, dialog.profile().readOnly);
}

} // namespace lockscope
