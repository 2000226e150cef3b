// One cluster's view (see cluster_view.h). Over 400 lines because it holds two flows that each
// read best in one place: a connection's life (connect, switch, end) and the choice of the lock
// prefix that follows it (the question, the broad-prefix check and its warning). The pages and
// dialogs it wires live in files of their own.
#include "app/gui/cluster_view.h"

#include "app/core/cluster_history_file.h"
#include "app/core/cluster_session.h"
#include "app/core/cluster_status_probe.h"
#include "app/core/guarded_post.h"
#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_watch.h"
#include "app/core/prefix_check.h"
#include "app/core/problem_log_model.h"
#include "app/core/seen_times_file.h"
#include "app/core/watch_recording.h"
#include "app/core/workspace.h"
#include "app/gui/blockers_page.h"
#include "app/gui/cluster_page.h"
#include "app/gui/connection_status.h"
#include "app/gui/history_replay_window.h"
#include "app/gui/lab_page.h"
#include "app/gui/lock_actions_bar.h"
#include "app/gui/metrics_page.h"
#include "app/gui/password_source.h"
#include "app/gui/prefix_bar.h"
#include "app/gui/recent_prefixes.h"
#include "app/gui/stage_page.h"
#include "app/gui/status_messages.h"
#include "app/gui/timeline_page.h"
#include "widgets/lock_prefix_dialog.h"
#include "widgets/steady_tab_widget.h"

#include <QFileInfo>
#include <QInputDialog>
#include <QSettings>
#include <QVBoxLayout>

namespace lockscope {

namespace {
// What clears a problem (ProblemLogModel::recover): the cluster answering our status, and the
// lock view live again.
const QString UnansweredCondition = QStringLiteral("unanswered");
const QString OutageCondition = QStringLiteral("outage");
// The sidebar's held count and longest wait walk the locks once a second on the GUI thread:
// past this many, they are left unknown rather than stall it.
constexpr std::size_t MaxLocksWalked = 20000;
constexpr auto LastHour = std::chrono::hours(1);
} // namespace

ClusterView::ClusterView(const Shared& shared, const RecordingSettings& recording, QWidget* parent)
    : QWidget(parent)
    , shared_(shared)
    , recordingSettings_(recording)
    , connectionStatus_(new ConnectionStatus(shared.statusBar))
    , prefixBar_(new PrefixBar)
    , pages_(new SteadyTabWidget)
    , locksPage_(new LocksPage)
    , timelinePage_(new TimelinePage)
    , clusterPage_(new ClusterPage)
    , metricsPage_(new MetricsPage)
    , labPage_(new LabPage)
    , blockersPage_(new BlockersPage)
    , stagePage_(new StagePage(locksPage_->lockActionsBar()))
    , prefixCheck_(new PrefixCheck(this))
    , passwords_(new PasswordSource(this)) {
    connect(prefixBar_, &PrefixBar::prefixChosen, this, [this](const std::string& prefix) {
        closePrefixDialog(); // chosen in the field: the question is answered
        watchPrefix(prefix);
    });
    connect(prefixCheck_, &PrefixCheck::fine, this, &ClusterView::startWatching);
    connect(prefixCheck_, &PrefixCheck::tooBroad, this, &ClusterView::warnBroadPrefix);
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
            [this](const QString& message) { shared_.messages->show(message, 10000); });

    pages_->setObjectName("mainTabs");
    pages_->addTab(locksPage_, tr("Locks"));
    pages_->addTab(blockersPage_, tr("Blockers"));
    pages_->addTab(timelinePage_, tr("Timeline"));
    pages_->addTab(clusterPage_, tr("Cluster"));
    pages_->addTab(metricsPage_, tr("Metrics"));
    pages_->addTab(labPage_, tr("Lab"));
    pages_->addTab(stagePage_, tr("Stage"));
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
    connect(locksPage_, &LocksPage::message, shared_.messages, &StatusMessages::show);
    connect(locksPage_, &LocksPage::problem, this,
            [this](const QString& message) { addProblem(ProblemKind::Lock, message); });
    // A deadlock is one problem while it lasts, marked recovered when it ends.
    connect(blockersPage_, &BlockersPage::deadlockBegan, this,
            [this](const QString& id, const QString& text) {
                ++deadlocks_;
                addProblem(ProblemKind::Lock, text, {}, QStringLiteral("deadlock:") + id);
            });
    connect(blockersPage_, &BlockersPage::deadlockEnded, this, [this](const QString& id) {
        deadlocks_ = std::max(0, deadlocks_ - 1);
        recoverProblem(QStringLiteral("deadlock:") + id);
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(prefixBar_);
    layout->addWidget(pages_, 1);
    showLiveness(false, tr("not connected"));

    connect(passwords_, &PasswordSource::ready, this, [this](const etcd::ClientOptions& options) {
        connectTo(options, pendingOrigin_.profile, pendingOrigin_.sandbox);
    });
    connect(passwords_, &PasswordSource::cancelled, this, [this] {
        const ProblemLogModel* problems = shared_.problems;
        const bool refusalSaid = problems->rowCount() > 0 &&
                                 problems->problemAt(0).kind == ProblemKind::Authentication &&
                                 problems->problemAt(0).cluster == name();
        if (workspace_ || refusalSaid)
            return; // the connection in use stays, or the refusal stays said
        connectionStatus_->setState(tr("Not connected"), "gray");
        addProblem(ProblemKind::Connection,
                   tr("Not connected: no password was given. Choose File → Connect… to "
                      "connect."));
    });
    connect(passwords_, &PasswordSource::keyringFailed, this,
            [this](const QString& message) { shared_.messages->show(message, 10000); });
}

// The Workspace is handed to the window, which keeps it until it has finished.
ClusterView::~ClusterView() {
    endWorkspace();
    delete connectionStatus_;
}

LockWatch* ClusterView::lockWatch() const {
    return workspace_ ? workspace_->lockWatch() : nullptr;
}

LockPrefixDialog* ClusterView::prefixDialog() const {
    return prefixDialog_;
}

QToolBar* ClusterView::lockActionsBar() const {
    return locksPage_->lockActionsBar();
}

void ClusterView::saveState(QSettings& settings) const {
    locksPage_->saveState(settings);
    clusterPage_->saveState(settings);
}

void ClusterView::restoreState(QSettings& settings) {
    locksPage_->restoreState(settings);
    clusterPage_->restoreState(settings);
}

void ClusterView::setShown(bool shown) {
    if (connectionStatus_)
        connectionStatus_->setVisible(shown);
}

// A condition is this view's own: another cluster's outage does not clear this one's.
QString ClusterView::ownCondition(const QString& condition) const {
    return condition.isEmpty() ? condition : QString::number(quintptr(this)) + ':' + condition;
}

void ClusterView::addProblem(ProblemKind kind, const QString& message, const QString& detail,
                             const QString& condition) {
    shared_.problems->add(kind, message, detail, QDateTime::currentDateTime(),
                          ownCondition(condition), name());
}

void ClusterView::recoverProblem(const QString& condition, const QString& note) {
    shared_.problems->recover(ownCondition(condition), QDateTime::currentDateTime(), note);
}

void ClusterView::connectTo(const etcd::ClientOptions& options, const QString& profile,
                            bool sandbox, bool sandboxAfresh) {
    endWorkspace();
    origin_ = {sandbox, profile};
    broadAccepted_.clear();
    QStringList endpoints;
    for (const std::string& endpoint : options.endpoints)
        endpoints << QString::fromStdString(endpoint);
    setPlace(endpoints.join(", "));
    connectionStatus_->setState(tr("Connecting…"), "#b07d00");

    workspace_ = new Workspace(options, shared_.workspaceOwner);
    recordWatch(options, sandboxAfresh);
    // A sandbox is new each time: nothing seen of it before.
    if (!sandbox)
        workspace_->lockWatch()->carrySeenTimes(readSeenTimes(seenTimesPath(options.endpoints)));
    connect(workspace_->session(), &ClusterSession::statusChanged, this,
            &ClusterView::showSessionStatus);
    connect(workspace_->session(), &ClusterSession::memberNamesChanged, this,
            [this](const QHash<quint64, QString>& names) { memberNames_ = names; });
    connect(workspace_->lockWatch(), &LockWatch::livenessChanged, this, &ClusterView::showLiveness);
    connect(workspace_->lockWatch(), &LockWatch::eventsArrived, this, &ClusterView::countEndings);
    // An outage of the view is on the record: a problem from its start, marked recovered with
    // both times and the revision re-read at its end.
    connect(workspace_->lockWatch(), &LockWatch::outageBegan, this,
            [this](const QDateTime& since, const QString& reason) {
                // The last status answered is as old: its figures go until etcd answers again.
                connectionStatus_->setState(
                    tr("No answer since %1").arg(since.toString("HH:mm:ss.zzz")), "#b07d00");
                connectionStatus_->clearFigures();
                addProblem(ProblemKind::Connection,
                           tr("The locks shown are as of %1, the last word from etcd: %2")
                               .arg(since.toString("HH:mm:ss.zzz"), reason),
                           {}, OutageCondition);
            });
    connect(workspace_->lockWatch(), &LockWatch::outageEnded, this,
            [this](const QDateTime& since, const QDateTime& until, qint64 revision) {
                recoverProblem(OutageCondition, tr("outage from %1 to %2, re-read at revision %3")
                                                    .arg(since.toString("HH:mm:ss.zzz"),
                                                         until.toString("HH:mm:ss.zzz"))
                                                    .arg(revision));
            });
    connect(workspace_->probe(), &ClusterStatusProbe::updated, this, &ClusterView::showAlarms);
    alarmsShown_.clear();
    slowestRoundTripMs_ = -1;
    lastAnswer_ = {};
    locksPage_->setWorkspace(workspace_);
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
        openPrefix(options, endpoints.join(", "));
    workspace_->startRefreshing();
    emit workspaceChanged();
}

void ClusterView::showStarting(const QString& state) {
    origin_ = {true, {}};
    setPlace(tr("starting…"));
    connectionStatus_->setState(state, "#b07d00");
}

void ClusterView::showSandboxFailed(const QString& message) {
    connectionStatus_->setState(tr("Sandbox failed"), "#c62828");
    setPlace(tr("not running"));
    addProblem(ProblemKind::Sandbox, message);
}

void ClusterView::openConnection(const etcd::ClientOptions& options, bool needsPassword,
                                 const QString& profile) {
    pendingOrigin_ = {false, profile};
    if (needsPassword)
        passwords_->find(options);
    else
        connectTo(options, profile, false);
}

void ClusterView::openPrefix(const etcd::ClientOptions& options, const QString& cluster) {
    const bool given = std::exchange(prefixGiven_, false);
    QSettings settings;
    const RecentPrefixes recent(settings);
    const QStringList usedHere = recent.ofCluster(options.endpoints);
    if (given || origin_.sandbox)
        watchPrefix(prefixBar_->currentPrefix());
    else if (!usedHere.isEmpty())
        prefixBar_->choose(usedHere.first());
    else {
        showLiveness(false, tr("no lock prefix chosen yet"));
        showPrefixDialog(
            LockPrefixDialog::askFirst(cluster, recent.all(), window()),
            [this](const LockPrefixDialog& dialog) { prefixBar_->choose(dialog.prefix()); });
    }
}

void ClusterView::watchPrefix(const std::string& prefix) {
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

void ClusterView::startWatching(const std::string& prefix) {
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

void ClusterView::warnBroadPrefix(const std::string& prefix, qint64 keys, qint64 otherKeys) {
    if (!workspace_)
        return;
    const QString text = displayKeyText(prefix);
    prefixBar_->showLiveness(false, tr("%1 not loaded: %2 keys").arg(text).arg(keys), false);
    QSettings settings;
    showPrefixDialog(LockPrefixDialog::warnBroad(text, keys, otherKeys,
                                                 RecentPrefixes(settings).all(), window()),
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

void ClusterView::showPrefixDialog(LockPrefixDialog* dialog,
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

void ClusterView::closePrefixDialog() {
    if (LockPrefixDialog* open = std::exchange(prefixDialog_, nullptr)) {
        open->disconnect(this); // closed by what replaces its answer, not answered
        open->reject();
    }
}

// The pages let go of the Workspace at once; it ends on its own time (see Workspace), kept by
// the window until it has finished.
void ClusterView::endWorkspace() {
    Workspace* ending = std::exchange(workspace_, nullptr);
    if (!ending)
        return;
    prefixCheck_->drop();
    closePrefixDialog();
    locksPage_->setWorkspace(nullptr);
    timelinePage_->setWorkspace(nullptr);
    clusterPage_->setWorkspace(nullptr);
    metricsPage_->setWorkspace(nullptr);
    labPage_->setWorkspace(nullptr);
    blockersPage_->setWorkspace(nullptr);
    stagePage_->setWorkspace(nullptr);
    ending->session()->disconnect(this);
    ending->lockWatch()->disconnect(this);
    ending->probe()->disconnect(this);
    if (!origin_.sandbox)
        writeSeenTimes(seenTimesPath(ending->options().endpoints),
                       ending->lockWatch()->seenTimesNow());
    // Our locks are let go of as it ends; one etcd does not confirm (the cluster refused our
    // credentials, or is down) still holds its place until its lease expires: said in the
    // problems area, which outlives this view.
    if (LockActions* actions = ending->lockActions())
        connect(actions, &LockActions::releaseUnconfirmed, shared_.problems,
                [problems = shared_.problems, cluster = name()](const QString& lock,
                                                                const QString& reason) {
                    problems->add(ProblemKind::Lock,
                                  tr("%1 was let go of without etcd's word: %2. Until its lease "
                                     "expires, our key may still hold it or keep its place in "
                                     "the queue.")
                                      .arg(lock, reason),
                                  {}, QDateTime::currentDateTime(), {}, cluster);
                });
    emit workspaceEnding(ending);
    ending->end();
    showLiveness(false, tr("not connected"));
    emit workspaceChanged();
}

void ClusterView::setReadOnly(bool windowReadOnly) {
    const bool readOnly = windowReadOnly || profileReadOnly_;
    labPage_->setEnabled(!readOnly);
    locksPage_->setReadOnly(readOnly);
}

void ClusterView::setPrefix(const QString& prefix) {
    if (!workspace_)
        prefixGiven_ = true; // the next connection opens on it
    prefixBar_->choose(prefix);
}

void ClusterView::showSessionStatus(const EndpointStatus& status) {
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
        addProblem(ProblemKind::Connection,
                   unreachable ? tr("Cannot reach the cluster: %1").arg(status.error)
                               : status.error,
                   {}, UnansweredCondition);
        connectionStatus_->clearFigures();
        return;
    }
    recoverProblem(UnansweredCondition);
    passwords_->accepted(workspace_->options());
    lastAnswer_ = status;
    connectionStatus_->showAnswer(status, originLabel(), memberNames_);
}

void ClusterView::stopOnRefusedPassword(const EndpointStatus& status) {
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
            addProblem(ProblemKind::Authentication, message, detail);
            pendingOrigin_ = origin_;
            passwords_->refused(refused, message);
        },
        Qt::QueuedConnection);
}

void ClusterView::showAlarms(const QList<EndpointStatus>& rows) {
    QStringList alarmed;
    double slowest = -1;
    for (const EndpointStatus& row : rows) {
        if (!row.alarms.empty())
            alarmed << tr("etcd alarm on %1: %2").arg(row.endpoint, row.problem());
        if (row.answered())
            slowest = std::max(slowest, row.roundTripMs);
    }
    slowestRoundTripMs_ = slowest;
    const QString alarms = alarmed.join('\n');
    // Polled every few seconds: a standing alarm is one problem, not one a poll.
    if (alarms != alarmsShown_ && !alarms.isEmpty())
        addProblem(ProblemKind::Connection, alarms);
    alarmsShown_ = alarms;
}

void ClusterView::setPlace(const QString& endpoints) {
    place_ = connectionStatus_->setPlace(originLabel(), endpoints);
    emit placeChanged(place_);
}

QString ClusterView::originLabel() const {
    return origin_.sandbox ? tr("sandbox") : origin_.profile;
}

QString ClusterView::name() const {
    const QString origin = originLabel();
    return origin.isEmpty() ? place_ : origin; // place_: the endpoints, without an origin
}

void ClusterView::showLiveness(bool live, const QString& why) {
    // Without a connection in use nothing reconnects.
    prefixBar_->showLiveness(live, why, workspace_ && workspace_->lockWatch()->hasPrefix());
}

void ClusterView::countEndings(const std::vector<etcd::LockEvent>& events) {
    const QDateTime now = QDateTime::currentDateTime();
    const QDateTime hourAgo = now.addSecs(-3600);
    for (std::deque<QDateTime>* times : {&expiries_, &losses_})
        while (!times->empty() && times->front() < hourAgo)
            times->pop_front(); // kept to the last hour's, and a little more until the next
    for (const etcd::LockEvent& event : events) {
        if (event.kind == etcd::LockEventKind::Expired)
            expiries_.push_back(now);
        else if (event.kind == etcd::LockEventKind::Lost)
            losses_.push_back(now);
    }
}

FleetRow ClusterView::summary() const {
    FleetRow row;
    row.id = quintptr(this);
    row.cluster = name();
    row.state = connectionStatus_ ? connectionStatus_->stateText() : QString();
    const QDateTime hourAgo = QDateTime::currentDateTime().addSecs(-3600);
    const auto inLastHour = [&hourAgo](const std::deque<QDateTime>& times) {
        return static_cast<int>(times.end() -
                                std::lower_bound(times.begin(), times.end(), hourAgo));
    };
    row.expiredLastHour = inLastHour(expiries_);
    row.lostLastHour = inLastHour(losses_);
    row.deadlocks = deadlocks_;
    row.slowestRoundTripMs = slowestRoundTripMs_;
    row.revision = lastAnswer_.answered() ? lastAnswer_.revision : 0;
    if (lastAnswer_.answered())
        row.leader =
            memberNames_.value(lastAnswer_.leaderId, EndpointStatus::hexId(lastAnswer_.leaderId));
    const QString problemsOf = name();
    for (int problem = 0; problem < shared_.problems->rowCount(); ++problem) {
        const ProblemLogModel::Problem& standing = shared_.problems->problemAt(problem);
        if (standing.cluster == problemsOf && !standing.recovered.isValid())
            ++row.problems;
    }
    LockWatch* watch = lockWatch();
    row.healthy = watch && watch->live() && row.problems == 0;
    if (!watch)
        return row;
    if (watch->hasPrefix())
        row.prefix = displayKeyText(watch->prefix());
    const etcd::LockMonitorState& state = watch->state();
    row.locks = state.lockCount;
    row.waiting = state.waiting;
    if (state.locks.size() > MaxLocksWalked || state.locks.size() < state.lockCount)
        return row;
    std::size_t held = 0;
    qint64 longestWait = 0;
    const auto now = std::chrono::system_clock::now();
    for (const auto& [lockName, queue] : state.locks) {
        if (!queue->holder())
            continue;
        ++held;
        for (std::size_t key = queue->holderCount(); key < queue->keys.size(); ++key)
            longestWait =
                std::max<qint64>(longestWait, std::chrono::duration_cast<std::chrono::milliseconds>(
                                                  now - queue->keys[key].enqueuedAt)
                                                  .count());
    }
    row.held = held;
    if (state.waiting > 0)
        row.longestWaitMs = longestWait;
    return row;
}

void ClusterView::recordWatch(const etcd::ClientOptions& options, bool afresh) {
    // A sandbox is a new cluster each time, on ports a later one may take again: it records
    // into a file of its own, begun again by each new sandbox, never into a real cluster's.
    const QString path =
        origin_.sandbox ? sandboxHistoryPath() : clusterHistoryPath(options.endpoints);
    auto recording = std::make_shared<WatchRecording>(path, clusterName(options.endpoints), afresh,
                                                      shared_.recordingThread, recordingSettings_);
    connect(recording.get(), &WatchRecording::failed, this,
            [this, folder = QFileInfo(path).absolutePath()](const QString& message) {
                addProblem(ProblemKind::Recording,
                           tr("Not recording the locks watched: %1. The live view goes on. Free "
                              "some space or make %2 writable, then connect again; or turn "
                              "recording off in File → Recording settings…")
                               .arg(message, folder));
            });
    recording_ = recording.get();
    workspace_->lockWatch()->setTap(std::move(recording));
}

QString ClusterView::historyPath() const {
    return recording_ ? recording_->path() : QString();
}

void ClusterView::setRecordingSettings(const RecordingSettings& settings) {
    recordingSettings_ = settings;
    if (recording_)
        recording_->apply(settings);
}

void ClusterView::openClusterHistory() {
    const QString path = historyPath();
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        shared_.messages->show(tr("Nothing recorded of this cluster yet"), 10000);
        return;
    }
    // The cluster's file holds a history per prefix watched: the one shown now first.
    const std::string prefix = workspace_ && workspace_->lockWatch()->hasPrefix()
                                   ? workspace_->lockWatch()->prefix()
                                   : std::string();
    (new HistoryReplayWindow(path, window(), prefix))->show(); // deletes itself when closed
}

void ClusterView::rewindToRevision() {
    LockWatch* watch = lockWatch();
    if (!watch || !workspace_->client() || !watch->hasPrefix()) {
        shared_.messages->show(tr("Connect to a cluster and choose a lock prefix first: etcd's "
                                  "history is read for the prefix shown."),
                               10000);
        return;
    }
    readKeptRevisions(*workspace_->client(), [self = QPointer<ClusterView>(this)](
                                                 etcd::Result<KeptRevisions> kept) {
        postGuarded(self, [kept](ClusterView* view) { view->askRevisionToRewindTo(kept); });
    });
}

void ClusterView::askRevisionToRewindTo(const etcd::Result<KeptRevisions>& kept) {
    if (!kept) {
        shared_.messages->show(tr("etcd did not say which revisions it keeps: %1")
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
    shared_.messages->show(tr("Reading etcd's history from revision %1…").arg(revision), 10000);
    readEtcdHistory(
        *workspace_->client(), prefix, revision, workspace_->lockWatch()->recipe(),
        [self = QPointer<ClusterView>(this), source, prefix](etcd::Result<EtcdHistory> read) {
            auto history = std::make_shared<etcd::Result<EtcdHistory>>(std::move(read));
            postGuarded(self, [history, source, prefix](ClusterView* view) {
                if (!*history) {
                    view->shared_.messages->show(
                        tr("etcd's history could not be read: %1")
                            .arg(QString::fromStdString(history->error().message)),
                        10000);
                    return;
                }
                (new HistoryReplayWindow(std::move(**history), source,
                                         QString::fromStdString(displayKey(prefix)),
                                         view->window()))
                    ->show();
            });
        });
}

} // namespace lockscope
