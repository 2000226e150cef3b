#pragma once

#include "app/core/endpoint_status.h"
#include "app/core/etcd_history.h"
#include "app/core/fleet_row.h"
#include "app/core/recording_settings.h"
#include "app/gui/locks_page.h"
#include "etcdclient/client_options.h"

#include <QHash>
#include <QPointer>
#include <QWidget>
#include <deque>
#include <functional>
#include <string>
#include <vector>

class QStatusBar;
class QTabWidget;
class QThread;
class QToolBar;
class QSettings;

namespace etcd {
struct LockEvent;
}

namespace lockscope {

class BlockersPage;
class ClusterPage;
class ConnectionStatus;
class LabPage;
class LockPrefixDialog;
class LockWatch;
class MetricsPage;
class PasswordSource;
class PrefixBar;
class PrefixCheck;
class ProblemLogModel;
enum class ProblemKind;
class StagePage;
class StatusMessages;
class TimelinePage;
class WatchRecording;
class Workspace;

// One cluster open in the window: its connection (a Workspace, replaced when the user connects
// this view elsewhere), its lock prefix and the question that chooses it, and its own pages
// (Locks, Blockers, Timeline, Cluster, Metrics, Lab, Stage) with their event log and graphs.
// What the window shares among its clusters comes in as Shared: the problems area (each problem
// naming this cluster), the status bar, the recordings' thread. An ended Workspace goes to the
// window (workspaceEnding), which outlives it until etcd has confirmed our locks are let go of:
// closing a cluster never waits on the network.
class ClusterView : public QWidget {
    Q_OBJECT
public:
    struct Shared {
        ProblemLogModel* problems;
        StatusMessages* messages;
        QStatusBar* statusBar;
        QThread* recordingThread;
        QObject* workspaceOwner; // the parent of this view's Workspaces, which outlives it
    };

    ClusterView(const Shared& shared, const RecordingSettings& recording,
                QWidget* parent = nullptr);
    ~ClusterView() override;

    // Connects this view as MainWindow::connectTo says, in place of its current connection.
    // `sandbox`: a sandbox the window started, which records afresh and watches the prefix
    // shown.
    void connectTo(const etcd::ClientOptions& options, const QString& profile, bool sandbox,
                   bool sandboxAfresh = false);
    // Finds a password first when the connection needs one (see MainWindow::openConnection).
    void openConnection(const etcd::ClientOptions& options, bool needsPassword,
                        const QString& profile);
    // Ends the connection in use, if any (see Workspace::end).
    void endWorkspace();
    // A sandbox starting for this view, and one that failed to.
    void showStarting(const QString& state);
    void showSandboxFailed(const QString& message);

    void setPrefix(const QString& prefix);
    void startLabDemoWhenConnected() { labDemo_ = true; }
    // Writing actions hidden when the window says so or this cluster's profile does.
    void setReadOnly(bool windowReadOnly);
    void setProfileReadOnly(bool readOnly) { profileReadOnly_ = readOnly; }
    void setRecordingSettings(const RecordingSettings& settings);
    // The status bar shows this view's connection while it is the one shown.
    void setShown(bool shown);

    Workspace* workspace() const { return workspace_; }
    LockWatch* lockWatch() const;
    LockPrefixDialog* prefixDialog() const;
    QToolBar* lockActionsBar() const;
    LocksPage* locksPage() const { return locksPage_; }
    StagePage* stagePage() const { return stagePage_; }
    PrefixBar* prefixBar() const { return prefixBar_; }
    QTabWidget* pages() const { return pages_; }
    QString historyPath() const;
    // Where this view connects: a profile's name, "sandbox" or its endpoints, as shown.
    QString name() const;
    // The window's title while this view is shown.
    QString place() const { return place_; }
    bool isSandbox() const { return origin_.sandbox; }
    const QString& profile() const { return origin_.profile; }
    // The cluster's figures now, for the sidebar and the fleet overview.
    FleetRow summary() const;

    void saveState(QSettings& settings) const;
    void restoreState(QSettings& settings);

    void rewindToRevision();
    void openClusterHistory();

signals:
    // A Workspace this view let go of: the window keeps it until it has finished.
    void workspaceEnding(Workspace* ending);
    // Connected elsewhere, or not connected any more.
    void workspaceChanged();
    void placeChanged(const QString& place);

private:
    // Where a connection comes from. Behaviour follows `sandbox`, never the name shown
    // (originLabel()): a profile may be named "sandbox", and a translation may change.
    struct Origin {
        bool sandbox = false;
        QString profile; // the connection profile's name; empty when given on the command line
    };

    QString originLabel() const;
    void addProblem(ProblemKind kind, const QString& message, const QString& detail = {},
                    const QString& condition = {});
    void recoverProblem(const QString& condition, const QString& note = {});
    QString ownCondition(const QString& condition) const;
    void recordWatch(const etcd::ClientOptions& options, bool afresh);
    void askRevisionToRewindTo(const etcd::Result<KeptRevisions>& kept);
    void showLiveness(bool live, const QString& why);
    void showSessionStatus(const EndpointStatus& status);
    void stopOnRefusedPassword(const EndpointStatus& status);
    // etcd's alarms (NOSPACE: every write refused) as a problem, once each time they change.
    void showAlarms(const QList<EndpointStatus>& rows);
    void setPlace(const QString& endpoints);
    // The prefix given before, or last used on the cluster, or the question.
    void openPrefix(const etcd::ClientOptions& options, const QString& cluster);
    void watchPrefix(const std::string& prefix); // after the check of its keys
    void startWatching(const std::string& prefix);
    void warnBroadPrefix(const std::string& prefix, qint64 keys, qint64 otherKeys);
    // Shows `dialog` (window-modal, not waited for) in place of one already open.
    void showPrefixDialog(LockPrefixDialog* dialog,
                          std::function<void(const LockPrefixDialog&)> onAccepted);
    void closePrefixDialog();
    // Expiries and losses seen: their times, for the last hour's counts.
    void countEndings(const std::vector<etcd::LockEvent>& events);

    Shared shared_;
    RecordingSettings recordingSettings_;
    QPointer<ConnectionStatus> connectionStatus_;
    PrefixBar* prefixBar_;
    QTabWidget* pages_;
    LocksPage* locksPage_;
    TimelinePage* timelinePage_;
    ClusterPage* clusterPage_;
    MetricsPage* metricsPage_;
    LabPage* labPage_;
    BlockersPage* blockersPage_;
    StagePage* stagePage_;
    PrefixCheck* prefixCheck_;
    PasswordSource* passwords_;
    QPointer<LockPrefixDialog> prefixDialog_;

    bool labDemo_ = false;
    bool profileReadOnly_ = false;
    bool prefixGiven_ = false;  // setPrefix() before a connection: no question
    std::string broadAccepted_; // a prefix loaded anyway on this connection
    Origin origin_;
    Origin pendingOrigin_; // the origin of the connection whose password is being found
    QString place_;
    QHash<quint64, QString> memberNames_;
    QString alarmsShown_; // the alarms last put among the problems, "" for none
    EndpointStatus lastAnswer_;
    double slowestRoundTripMs_ = -1;
    int deadlocks_ = 0;
    std::deque<QDateTime> expiries_;
    std::deque<QDateTime> losses_;
    QPointer<WatchRecording> recording_; // the Workspace's in use
    Workspace* workspace_ = nullptr;
};

} // namespace lockscope
