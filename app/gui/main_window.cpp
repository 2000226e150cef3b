// The window's wiring (see main_window.h). Over 400 lines because it holds two flows that each
// read best in one place: a connection's life (connect, switch, end, close) and the choice of
// the lock prefix that follows it (the question, the broad-prefix check and its warning). The
// pages, menus and dialogs it wires live in files of their own.
#include "app/gui/main_window.h"

#include "app/core/cluster_history_file.h"
#include "app/core/cluster_session.h"
#include "app/core/cluster_status_probe.h"
#include "app/core/connection_profiles.h"
#include "app/core/guarded_post.h"
#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_watch.h"
#include "app/core/prefix_check.h"
#include "app/core/problem_log_model.h"
#include "app/core/recording_thread.h"
#include "app/core/sandbox.h"
#include "app/core/seen_times_file.h"
#include "app/core/watch_recording.h"
#include "app/gui/blockers_page.h"
#include "app/gui/cluster_page.h"
#include "app/gui/connection_status.h"
#include "app/gui/help_menu.h"
#include "app/gui/history_replay_window.h"
#include "app/gui/lab_page.h"
#include "app/gui/lock_actions_bar.h"
#include "app/gui/locks_page.h"
#include "app/gui/metrics_page.h"
#include "app/gui/password_source.h"
#include "app/gui/prefix_bar.h"
#include "app/gui/recent_prefixes.h"
#include "app/gui/sandbox_menu.h"
#include "app/gui/screen_fit.h"
#include "app/gui/stage_page.h"
#include "app/gui/status_messages.h"
#include "app/gui/timeline_page.h"
#include "app/gui/view_menu.h"
#include "widgets/connection_dialog.h"
#include "widgets/frame_rate_cap.h"
#include "widgets/lock_prefix_dialog.h"
#include "widgets/problem_list.h"
#include "widgets/recording_settings_dialog.h"
#include "widgets/steady_tab_widget.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace lockscope {

namespace {
// What clears a problem (ProblemLogModel::recover): the cluster answering our status, and the
// lock view live again.
const QString UnansweredCondition = QStringLiteral("unanswered");
const QString OutageCondition = QStringLiteral("outage");
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , prefixBar_(new PrefixBar)
    , problems_(new ProblemLogModel(this))
    , problemList_(new ProblemList)
    , statusMessages_(new StatusMessages(statusBar()))
    , connectionStatus_(new ConnectionStatus(statusBar()))
    , locksPage_(new LocksPage)
    , timelinePage_(new TimelinePage)
    , clusterPage_(new ClusterPage)
    , metricsPage_(new MetricsPage)
    , labPage_(new LabPage)
    , blockersPage_(new BlockersPage)
    , stagePage_(new StagePage(locksPage_->lockActionsBar()))
    , prefixCheck_(new PrefixCheck(this))
    , recordingThread_(std::make_unique<RecordingThread>()) {
    setWindowTitle("LockScope");
    resize(1280, 800);
    new FrameRateCap(this, FrameInterval);

    problemList_->setModel(problems_);

    connect(prefixBar_, &PrefixBar::prefixChosen, this, [this](const std::string& prefix) {
        closePrefixDialog(); // chosen in the field: the question is answered
        watchPrefix(prefix);
    });
    connect(prefixCheck_, &PrefixCheck::fine, this, &MainWindow::startWatching);
    connect(prefixCheck_, &PrefixCheck::tooBroad, this, &MainWindow::warnBroadPrefix);
    connect(prefixBar_, &PrefixBar::recipeChosen, this, [this](etcd::RecipeOverride recipe) {
        if (!workspace_ || !workspace_->lockWatch()->hasPrefix())
            return;
        LockWatch* watch = workspace_->lockWatch();
        QSettings settings;
        RecentPrefixes(settings).rememberRecipeOn(workspace_->options().endpoints,
                                                  displayKeyText(watch->prefix()), recipe);
        watch->setPrefix(watch->prefix(), recipe);
    });
    connect(prefixBar_, &PrefixBar::rejected, this,
            [this](const QString& message) { statusMessages_->show(message, 10000); });

    auto* tabs = new SteadyTabWidget;
    tabs->setObjectName("mainTabs");
    tabs->addTab(locksPage_, tr("Locks"));
    tabs->addTab(blockersPage_, tr("Blockers"));
    tabs->addTab(timelinePage_, tr("Timeline"));
    tabs->addTab(clusterPage_, tr("Cluster"));
    tabs->addTab(metricsPage_, tr("Metrics"));
    tabs->addTab(labPage_, tr("Lab"));
    tabs->addTab(stagePage_, tr("Stage"));
    locksPage_->setObjectName("locksPage");
    timelinePage_->setObjectName("lockCharts");
    clusterPage_->setObjectName("clusterPage");
    metricsPage_->setObjectName("metricsPage");
    labPage_->setObjectName("labPanel");
    blockersPage_->setObjectName("blockersPage");
    stagePage_->setObjectName("stagePage");
    connect(labPage_, &LabPage::overlapFound, timelinePage_, &TimelinePage::markOverlap);
    connect(labPage_, &LabPage::overlapFound, stagePage_, &StagePage::showSplitBrain);
    connect(locksPage_, &LocksPage::ownWaitMeasured, timelinePage_, &TimelinePage::addOwnWait);
    connect(locksPage_, &LocksPage::message, statusMessages_, &StatusMessages::show);
    connect(locksPage_, &LocksPage::problem, this,
            [this](const QString& message) { showProblem(ProblemKind::Lock, message); });
    // A deadlock is one problem while it lasts, marked recovered when it ends.
    connect(blockersPage_, &BlockersPage::deadlockBegan, this,
            [this](const QString& id, const QString& text) {
                problems_->add(ProblemKind::Lock, text, {}, QDateTime::currentDateTime(),
                               QStringLiteral("deadlock:") + id);
            });
    connect(blockersPage_, &BlockersPage::deadlockEnded, this,
            [this](const QString& id) { problems_->recover(QStringLiteral("deadlock:") + id); });

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->addWidget(problemList_);
    layout->addWidget(prefixBar_);
    layout->addWidget(tabs, 1);
    setCentralWidget(central);

    createMenus(tabs);
    showLiveness(false, tr("not connected"));

    passwords_ = new PasswordSource(this);
    connect(passwords_, &PasswordSource::ready, this, &MainWindow::replaceConnection);
    connect(passwords_, &PasswordSource::cancelled, this, [this] {
        const bool refusalSaid = problems_->rowCount() > 0 &&
                                 problems_->problemAt(0).kind == ProblemKind::Authentication;
        if (workspace_ || refusalSaid)
            return; // the connection in use stays, or the refusal stays said
        connectionStatus_->setState(tr("Not connected"), "gray");
        showProblem(ProblemKind::Connection,
                    tr("Not connected: no password was given. Choose File → Connect… to "
                       "connect."));
    });
    connect(passwords_, &PasswordSource::keyringFailed, this,
            [this](const QString& message) { statusMessages_->show(message, 10000); });
    restoreSettings();
}

void MainWindow::createMenus(QTabWidget* pages) {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* connectAction =
        fileMenu->addAction(tr("&Connect…"), this, &MainWindow::chooseConnection);
    connectAction->setObjectName("connectAction");
    connectAction->setShortcut(QKeySequence::Open);
    auto* exportAction = fileMenu->addAction(tr("&Export event log…"));
    exportAction->setObjectName("exportEventLogAction");
    connect(exportAction, &QAction::triggered, locksPage_, &LocksPage::chooseEventLogFile);
    auto* openHistoryAction =
        fileMenu->addAction(tr("Open &history…"), this, &MainWindow::chooseHistory);
    openHistoryAction->setObjectName("openHistoryAction");
    auto* clusterHistoryAction = fileMenu->addAction(tr("Open this cluster's histor&y"), this,
                                                     &MainWindow::openClusterHistory);
    clusterHistoryAction->setObjectName("openClusterHistoryAction");
    auto* recordingAction =
        fileMenu->addAction(tr("&Recording settings…"), this, &MainWindow::editRecordingSettings);
    recordingAction->setObjectName("recordingSettingsAction");
    auto* rewindAction =
        fileMenu->addAction(tr("Re&wind to revision…"), this, &MainWindow::rewindToRevision);
    rewindAction->setObjectName("rewindAction");
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    // The lock actions bar's own actions: one behaviour and one shortcut, whichever is used, and
    // the shortcuts work on every tab, not only where the bar is.
    QMenu* lockMenu = menuBar()->addMenu(tr("&Lock"));
    lockMenu->setObjectName("lockMenu");
    lockMenu->setToolTipsVisible(true); // they say whose key Force release and Copy key take
    lockMenu->addActions(locksPage_->lockActionsBar()->lockActions());
    locksPage_->lockActionsBar()->describeTargetIn(lockMenu);
    connect(lockMenu, &QMenu::aboutToShow, locksPage_->lockActionsBar(),
            &LockActionsBar::describeTarget);

    auto* viewMenu = new ViewMenu(pages, prefixBar_, locksPage_, menuBar());
    menuBar()->addMenu(viewMenu);
    viewMenu->insertAction(viewMenu->readOnlyAction(), stagePage_->presentationAction());
    readOnlyAction_ = viewMenu->readOnlyAction();
    connect(readOnlyAction_, &QAction::toggled, this, &MainWindow::setReadOnly);

    sandboxMenu_ = new SandboxMenu(menuBar());
    menuBar()->addMenu(sandboxMenu_);

    helpMenu_ = new HelpMenu(menuBar(), this);
    menuBar()->addMenu(helpMenu_);
}

MainWindow::~MainWindow() {
    // Destroyed without a close (a termination signal, a test's end): the window is going
    // away, so waiting here for etcd's answers blocks nothing anyone sees, and each wait is
    // bounded by its Workspace's deadline. The sandbox's etcd goes last, so no Workspace is
    // left talking to a stopped server.
    closeWhenEnded_ = false;
    endWorkspace();
    for (Workspace* ending : findChildren<Workspace*>(QString(), Qt::FindDirectChildrenOnly))
        delete ending; // ends and waits
    delete sandbox_;
}

LockWatch* MainWindow::lockWatch() const {
    return workspace_ ? workspace_->lockWatch() : nullptr;
}

QToolBar* MainWindow::lockActionsBar() const {
    return locksPage_->lockActionsBar();
}

bool MainWindow::exportEventLog(const QString& path, QString& error,
                                LocksPage::EventExport what) const {
    return locksPage_->exportEventLog(path, error, what);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveSettings();
    endWorkspace();
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

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    locksPage_->saveState(settings);
    clusterPage_->saveState(settings);
}

void MainWindow::connectTo(const etcd::ClientOptions& options, const QString& profile) {
    connectWith(options, {false, profile});
}

void MainWindow::connectWith(const etcd::ClientOptions& options, const Origin& origin) {
    endWorkspace();
    origin_ = origin;
    broadAccepted_.clear();
    QStringList endpoints;
    for (const std::string& endpoint : options.endpoints)
        endpoints << QString::fromStdString(endpoint);
    setPlace(endpoints.join(", "));
    connectionStatus_->setState(tr("Connecting…"), "#b07d00");

    workspace_ = new Workspace(options, this);
    recordWatch(options, origin.sandbox);
    // A sandbox is new each time: nothing seen of it before.
    if (!origin.sandbox)
        workspace_->lockWatch()->carrySeenTimes(readSeenTimes(seenTimesPath(options.endpoints)));
    connect(workspace_->session(), &ClusterSession::statusChanged, this,
            &MainWindow::showSessionStatus);
    connect(workspace_->session(), &ClusterSession::memberNamesChanged, this,
            [this](const QHash<quint64, QString>& names) { memberNames_ = names; });
    connect(workspace_->lockWatch(), &LockWatch::livenessChanged, this, &MainWindow::showLiveness);
    // An outage of the view is on the record: a problem from its start, marked recovered with
    // both times and the revision re-read at its end.
    connect(workspace_->lockWatch(), &LockWatch::outageBegan, this,
            [this](const QDateTime& since, const QString& reason) {
                // The last status answered is as old: its figures go until etcd answers again.
                connectionStatus_->setState(
                    tr("No answer since %1").arg(since.toString("HH:mm:ss.zzz")), "#b07d00");
                connectionStatus_->clearFigures();
                problems_->add(ProblemKind::Connection,
                               tr("The locks shown are as of %1, the last word from etcd: %2")
                                   .arg(since.toString("HH:mm:ss.zzz"), reason),
                               {}, QDateTime::currentDateTime(), OutageCondition);
            });
    connect(workspace_->lockWatch(), &LockWatch::outageEnded, this,
            [this](const QDateTime& since, const QDateTime& until, qint64 revision) {
                problems_->recover(
                    OutageCondition, until,
                    tr("outage from %1 to %2, re-read at revision %3")
                        .arg(since.toString("HH:mm:ss.zzz"), until.toString("HH:mm:ss.zzz"))
                        .arg(revision));
            });
    connect(workspace_->probe(), &ClusterStatusProbe::updated, this, &MainWindow::showAlarms);
    alarmsShown_.clear();
    locksPage_->setWorkspace(workspace_);
    helpMenu_->setWorkspace(workspace_);
    timelinePage_->setWorkspace(workspace_);
    clusterPage_->setWorkspace(workspace_);
    metricsPage_->setWorkspace(workspace_);
    labPage_->setWorkspace(workspace_);
    blockersPage_->setWorkspace(workspace_);
    stagePage_->setWorkspace(workspace_);
    if (labDemo_ && workspace_->client()) {
        labDemo_ = false;
        setPrefix("/lockscope-lab/");
        labPage_->start();
    } else
        openPrefix(options, origin, endpoints.join(", "));
    workspace_->startRefreshing();
}

void MainWindow::openPrefix(const etcd::ClientOptions& options, const Origin& origin,
                            const QString& cluster) {
    const bool given = std::exchange(prefixGiven_, false);
    QSettings settings;
    const RecentPrefixes recent(settings);
    const QStringList usedHere = recent.ofCluster(options.endpoints);
    if (given || origin.sandbox)
        watchPrefix(prefixBar_->currentPrefix());
    else if (!usedHere.isEmpty())
        prefixBar_->choose(usedHere.first());
    else {
        showLiveness(false, tr("no lock prefix chosen yet"));
        showPrefixDialog(
            LockPrefixDialog::askFirst(cluster, recent.all(), this),
            [this](const LockPrefixDialog& dialog) { prefixBar_->choose(dialog.prefix()); });
    }
}

void MainWindow::watchPrefix(const std::string& prefix) {
    if (!workspace_)
        return;
    prefixCheck_->drop(); // the answer for a prefix chosen before is not wanted any more
    LockWatch* watch = workspace_->lockWatch();
    if (watch->hasPrefix() && watch->prefix() == prefix) {
        showLiveness(watch->live(), watch->whyNotLive()); // said again over a warning
        return;
    }
    etcd::Client* client = workspace_->client();
    if (!client || prefix == broadAccepted_) {
        startWatching(prefix);
        return;
    }
    prefixBar_->showLiveness(false, tr("counting the keys under %1…").arg(displayKeyText(prefix)),
                             false);
    prefixCheck_->check(*client, prefix);
}

void MainWindow::startWatching(const std::string& prefix) {
    if (!workspace_)
        return;
    QSettings settings;
    RecentPrefixes recent(settings);
    if (!origin_.sandbox)
        recent.rememberUsedOn(workspace_->options().endpoints, displayKeyText(prefix));
    const etcd::RecipeOverride recipe =
        recent.recipeOn(workspace_->options().endpoints, displayKeyText(prefix));
    prefixBar_->showRecipe(recipe);
    workspace_->lockWatch()->setPrefix(prefix, recipe);
}

void MainWindow::warnBroadPrefix(const std::string& prefix, qint64 keys, qint64 otherKeys) {
    if (!workspace_)
        return;
    const QString text = displayKeyText(prefix);
    prefixBar_->showLiveness(false, tr("%1 not loaded: %2 keys").arg(text).arg(keys), false);
    QSettings settings;
    showPrefixDialog(
        LockPrefixDialog::warnBroad(text, keys, otherKeys, RecentPrefixes(settings).all(), this),
        [this, prefix](const LockPrefixDialog& dialog) {
            if (!dialog.loadAnyway()) {
                prefixBar_->choose(dialog.prefix()); // checked in turn
                return;
            }
            broadAccepted_ = prefix;
            startWatching(prefix);
        });
    // Not narrowed, not loaded: the field shows again the prefix still watched, if any.
    connect(prefixDialog_, &QDialog::rejected, this, [this] {
        prefixDialog_ = nullptr;
        if (workspace_ && workspace_->lockWatch()->hasPrefix())
            prefixBar_->choose(displayKeyText(workspace_->lockWatch()->prefix()));
    });
}

void MainWindow::showPrefixDialog(LockPrefixDialog* dialog,
                                  std::function<void(const LockPrefixDialog&)> onAccepted) {
    closePrefixDialog();
    prefixDialog_ = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, onAccepted = std::move(onAccepted)] {
        prefixDialog_ = nullptr; // answered: what it leads to may ask again
        onAccepted(*dialog);
    });
    dialog->open();
}

LockPrefixDialog* MainWindow::prefixDialog() const {
    return prefixDialog_;
}

void MainWindow::closePrefixDialog() {
    if (LockPrefixDialog* open = std::exchange(prefixDialog_, nullptr)) {
        open->disconnect(this); // closed by what replaces its answer, not answered
        open->reject();
    }
}

void MainWindow::replaceConnection(const etcd::ClientOptions& options) {
    connectWith(options, pendingOrigin_);
}

// The pages let go of the Workspace at once; it ends on its own time (see Workspace) and is
// deleted once it has finished.
void MainWindow::endWorkspace() {
    Workspace* ending = std::exchange(workspace_, nullptr);
    if (!ending)
        return;
    prefixCheck_->drop();
    closePrefixDialog();
    locksPage_->setWorkspace(nullptr);
    helpMenu_->setWorkspace(nullptr);
    timelinePage_->setWorkspace(nullptr);
    clusterPage_->setWorkspace(nullptr);
    metricsPage_->setWorkspace(nullptr);
    labPage_->setWorkspace(nullptr);
    blockersPage_->setWorkspace(nullptr);
    stagePage_->setWorkspace(nullptr);
    ending->session()->disconnect(this);
    ending->lockWatch()->disconnect(this);
    if (!origin_.sandbox)
        writeSeenTimes(seenTimesPath(ending->options().endpoints),
                       ending->lockWatch()->seenTimesNow());
    // Our locks are let go of as it ends; one etcd does not confirm (the cluster refused our
    // credentials, or is down) still holds its place until its lease expires: said here, where
    // it outlives the connection.
    if (LockActions* actions = ending->lockActions())
        connect(actions, &LockActions::releaseUnconfirmed, this,
                [this](const QString& name, const QString& reason) {
                    showProblem(ProblemKind::Lock,
                                tr("%1 was let go of without etcd's word: %2. Until its lease "
                                   "expires, our key may still hold it or keep its place in the "
                                   "queue.")
                                    .arg(name, reason));
                });
    ++endingWorkspaces_;
    connect(ending, &Workspace::finished, this, [this, ending] {
        ending->deleteLater();
        if (--endingWorkspaces_ == 0 && closeWhenEnded_) {
            closeWhenEnded_ = false;
            close();
        }
    });
    ending->end();
    showLiveness(false, tr("not connected"));
}

void MainWindow::setReadOnly(bool readOnly) {
    readOnly_ = readOnly;
    {
        const QSignalBlocker quiet(readOnlyAction_);
        readOnlyAction_->setChecked(readOnly);
    }
    labPage_->setEnabled(!readOnly);
    locksPage_->setReadOnly(readOnly);
}

void MainWindow::setPrefix(const QString& prefix) {
    if (!workspace_)
        prefixGiven_ = true; // the next connection opens on it
    prefixBar_->choose(prefix);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    fitToScreen(*this); // saved on a larger screen, or by a version whose window could grow
    locksPage_->restoreState(settings);
    clusterPage_->restoreState(settings);
    recordingSettings_ = RecordingSettings::read(settings);
}

void MainWindow::openConnection(const ConnectionOptions& connection, const QString& profile) {
    pendingOrigin_ = {false, profile};
    if (connection.needsPassword)
        passwords_->find(connection.client);
    else
        replaceConnection(connection.client);
}

void MainWindow::startSandbox(const QString& etcdProgram, int members) {
    origin_ = {true, {}};
    sandboxAfresh_ = true;
    setPlace(tr("starting…"));
    connectionStatus_->setState(tr("Starting sandbox etcd…"), "#b07d00");
    sandbox_ = new Sandbox(etcdProgram, members, this);
    connect(sandbox_, &Sandbox::ready, this, [this](const QStringList& endpoints) {
        etcd::ClientOptions options;
        options.endpoints.clear();
        for (const QString& endpoint : endpoints)
            options.endpoints.push_back(endpoint.toStdString());
        connectWith(options, {true, {}});
        sandboxMenu_->setSandbox(sandbox_);
    });
    connect(sandbox_, &Sandbox::failed, this, [this](const QString& message) {
        connectionStatus_->setState(tr("Sandbox failed"), "#c62828");
        setPlace(tr("not running"));
        showProblem(ProblemKind::Sandbox, message);
    });
    sandbox_->start();
}

void MainWindow::showSessionStatus(const EndpointStatus& status) {
    if (status.errorCode == etcd::ErrorCode::AuthFailed) {
        stopOnRefusedPassword(status);
        return;
    }
    if (!status.answered()) {
        // Only an unanswered connection is "unreachable"; other errors (TLS, DNS, credentials)
        // already say what is wrong.
        const bool unreachable = status.errorCode == etcd::ErrorCode::Unavailable;
        connectionStatus_->setState(unreachable ? tr("Unreachable") : tr("Not connected"),
                                    "#c62828");
        problems_->add(ProblemKind::Connection,
                       unreachable ? tr("Cannot reach the cluster: %1").arg(status.error)
                                   : status.error,
                       {}, QDateTime::currentDateTime(), UnansweredCondition);
        connectionStatus_->clearFigures();
        return;
    }
    problems_->recover(UnansweredCondition);
    passwords_->accepted(workspace_->options());
    connectionStatus_->showAnswer(status, originLabel(), memberNames_);
}

void MainWindow::stopOnRefusedPassword(const EndpointStatus& status) {
    const etcd::ClientOptions refused = workspace_->options();
    const QString message =
        tr("Authentication failed for user %1: etcd refused the user name or password. Enter "
           "the password again, or choose File → Connect… to change the user or the cluster.")
            .arg(QString::fromStdString(refused.username));
    // Queued: this runs inside the session's own signal, and the session is deleted.
    QMetaObject::invokeMethod(
        this,
        [this, failed = QPointer(workspace_), refused, message, detail = status.error] {
            if (!failed || workspace_ != failed)
                return;
            endWorkspace();
            connectionStatus_->setState(tr("Authentication failed"), "#c62828");
            connectionStatus_->clearFigures();
            showProblem(ProblemKind::Authentication, message, detail);
            pendingOrigin_ = origin_;
            passwords_->refused(refused, message);
        },
        Qt::QueuedConnection);
}

void MainWindow::showAlarms(const QList<EndpointStatus>& rows) {
    QStringList alarmed;
    for (const EndpointStatus& row : rows)
        if (!row.alarms.empty())
            alarmed << tr("etcd alarm on %1: %2").arg(row.endpoint, row.problem());
    const QString alarms = alarmed.join('\n');
    // Polled every few seconds: a standing alarm is one problem, not one a poll.
    if (alarms != alarmsShown_ && !alarms.isEmpty())
        showProblem(ProblemKind::Connection, alarms);
    alarmsShown_ = alarms;
}

void MainWindow::showProblem(ProblemKind kind, const QString& message, const QString& detail) {
    problems_->add(kind, message, detail);
}

void MainWindow::setPlace(const QString& endpoints) {
    setWindowTitle(tr("LockScope — %1").arg(connectionStatus_->setPlace(originLabel(), endpoints)));
}

QString MainWindow::originLabel() const {
    return origin_.sandbox ? tr("sandbox") : origin_.profile;
}

void MainWindow::startLabDemoWhenConnected() {
    labDemo_ = true;
}

void MainWindow::chooseHistory() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open a recorded lock history"), QString(),
                                     tr("Lock histories (*.db *.sqlite);;All files (*)"));
    if (path.isEmpty())
        return;
    (new HistoryReplayWindow(path, this))->show(); // deletes itself when closed
}

void MainWindow::rewindToRevision() {
    LockWatch* watch = workspace_ ? workspace_->lockWatch() : nullptr;
    if (!watch || !workspace_->client() || !watch->hasPrefix()) {
        statusMessages_->show(tr("Connect to a cluster and choose a lock prefix first: etcd's "
                                 "history is read for the prefix shown."),
                              10000);
        return;
    }
    readKeptRevisions(*workspace_->client(), [self = QPointer<MainWindow>(this)](
                                                 etcd::Result<KeptRevisions> kept) {
        postGuarded(self, [kept](MainWindow* window) { window->askRevisionToRewindTo(kept); });
    });
}

void MainWindow::askRevisionToRewindTo(const etcd::Result<KeptRevisions>& kept) {
    if (!kept) {
        statusMessages_->show(tr("etcd did not say which revisions it keeps: %1")
                                  .arg(QString::fromStdString(kept.error().message)),
                              10000);
        return;
    }
    const QPointer<Workspace> asked = workspace_;
    bool ok = false;
    const int64_t oldest = kept->oldest, newest = kept->newest;
    // QInputDialog counts in int: a cluster past 2^31 revisions is offered its latest 2^31.
    const int top = static_cast<int>(std::min<int64_t>(newest, std::numeric_limits<int>::max()));
    const int bottom = static_cast<int>(std::max<int64_t>(oldest, newest - top + 1));
    const int revision = QInputDialog::getInt(
        this, tr("Rewind to revision"),
        tr("etcd keeps revisions %1 to %2, until its next compaction; it keeps no times. Replay "
           "the locks under %3 from revision:")
            .arg(oldest)
            .arg(newest)
            .arg(QString::fromStdString(displayKey(workspace_->lockWatch()->prefix()))),
        std::max(bottom, top - 100), bottom, top, 1, &ok);
    // The dialog waited on the user: the connection may have changed meanwhile.
    if (!ok || !asked || asked != workspace_)
        return;
    const std::string prefix = workspace_->lockWatch()->prefix();
    // Named as its recordings name the cluster.
    const QString source = QString::fromStdString(clusterName(workspace_->options().endpoints));
    statusMessages_->show(tr("Reading etcd's history from revision %1…").arg(revision), 10000);
    readEtcdHistory(
        *workspace_->client(), prefix, revision, workspace_->lockWatch()->recipe(),
        [self = QPointer<MainWindow>(this), source, prefix](etcd::Result<EtcdHistory> read) {
            auto history = std::make_shared<etcd::Result<EtcdHistory>>(std::move(read));
            postGuarded(self, [history, source, prefix](MainWindow* window) {
                if (!*history) {
                    window->statusMessages_->show(
                        tr("etcd's history could not be read: %1")
                            .arg(QString::fromStdString(history->error().message)),
                        10000);
                    return;
                }
                (new HistoryReplayWindow(std::move(**history), source,
                                         QString::fromStdString(displayKey(prefix)), window))
                    ->show();
            });
        });
}

void MainWindow::recordWatch(const etcd::ClientOptions& options, bool sandbox) {
    // A sandbox is a new cluster each time, on ports a later one may take again: it records
    // into a file of its own, begun again by each new sandbox, never into a real cluster's.
    const QString path = sandbox ? sandboxHistoryPath() : clusterHistoryPath(options.endpoints);
    auto recording = std::make_shared<WatchRecording>(
        path, clusterName(options.endpoints), sandbox && std::exchange(sandboxAfresh_, false),
        recordingThread_->thread(), recordingSettings_);
    connect(recording.get(), &WatchRecording::failed, this,
            [this, folder = QFileInfo(path).absolutePath()](const QString& message) {
                showProblem(ProblemKind::Recording,
                            tr("Not recording the locks watched: %1. The live view goes on. Free "
                               "some space or make %2 writable, then connect again; or turn "
                               "recording off in File → Recording settings…")
                                .arg(message, folder));
            });
    recording_ = recording.get();
    workspace_->lockWatch()->setTap(std::move(recording));
}

QString MainWindow::historyPath() const {
    return recording_ ? recording_->path() : QString();
}

void MainWindow::setRecordingSettings(const RecordingSettings& settings) {
    recordingSettings_ = settings;
    QSettings stored;
    settings.write(stored);
    if (recording_)
        recording_->apply(settings);
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

void MainWindow::openClusterHistory() {
    const QString path = historyPath();
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        statusMessages_->show(tr("Nothing recorded of this cluster yet"), 10000);
        return;
    }
    // The cluster's file holds a history per prefix watched: the one shown now first.
    const std::string prefix = workspace_ && workspace_->lockWatch()->hasPrefix()
                                   ? workspace_->lockWatch()->prefix()
                                   : std::string();
    (new HistoryReplayWindow(path, this, prefix))->show(); // deletes itself when closed
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
    openConnection(*options, dialog.profile().name);
    setReadOnly(dialog.profile().readOnly);
}

void MainWindow::showLiveness(bool live, const QString& why) {
    // Without a connection in use nothing reconnects.
    prefixBar_->showLiveness(live, why, workspace_ && workspace_->lockWatch()->hasPrefix());
}

} // namespace lockscope
