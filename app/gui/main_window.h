#pragma once

#include "app/core/endpoint_status.h"
#include "app/core/etcd_history.h"
#include "app/core/recording_settings.h"
#include "app/core/workspace.h"
#include "app/gui/locks_page.h"
#include "etcdclient/client_options.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

class QAction;
class QLabel;
class QTabWidget;
class QToolBar;

namespace lockscope {

class ClusterPage;
class MetricsPage;
class SandboxMenu;
class StagePage;
class ConnectionStatus;
class HelpMenu;
class BlockersPage;
class LabPage;
class LockWatch;
class LockPrefixDialog;
class PasswordSource;
class PrefixCheck;
class PrefixBar;
class ProblemList;
class RecordingThread;
class ProblemLogModel;
enum class ProblemKind;
class Sandbox;
class StatusMessages;
class TimelinePage;
class WatchRecording;
struct ConnectionOptions;

// LockScope's main window: a shell over the pages (Locks, Timeline, Cluster, Lab, Stage), which
// show the models of the Workspace in use. The window keeps the menus, the prefix field, the status
// bar, the settings and the connection: switching connection ends one Workspace and makes
// another. Nothing here waits on the network: a Workspace ends asynchronously, and a close
// waits (with the window still open) until every ending Workspace has finished.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int RefreshIntervalMs = Workspace::RefreshIntervalMs; // the status bar's
    // At most ~30 repaints a second: smooth to the eye, and at thousands of lock events a
    // second the GUI thread's time goes to the models rather than to repainting tables.
    static constexpr std::chrono::milliseconds FrameInterval{33};

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Connects to a cluster; `profile` (a connection profile's name, or empty) is shown beside
    // the endpoints. The locks of the prefix given before (setPrefix) are watched, or else of
    // the prefix last used on that cluster; a cluster not seen before is asked for its lock
    // prefix, and none is watched until one is chosen. The sandbox watches the prefix shown.
    void connectTo(const etcd::ClientOptions& options, const QString& profile = {});
    // Connects as `connection` says, in place of the current connection. A user named without a
    // password gets it from the keyring or the password dialog first; the current connection
    // stays until then (and stays if the dialog is cancelled).
    void openConnection(const ConnectionOptions& connection, const QString& profile = {});
    // Starts a one-member etcd and connects to it once it is ready.
    void startSandbox(const QString& etcdProgram = "etcd", int members = 1);
    // Once connected, start the contention lab with a few workers and watch its locks: what a
    // new user sees first.
    void startLabDemoWhenConnected();
    // Hides every action that writes to etcd.
    void setReadOnly(bool readOnly);

    // Watches the locks under `prefix` and remembers it among the recent prefixes. Before its
    // keys are loaded, a prefix with more than PrefixCheck::MaxOtherKeys keys that are not
    // locks is said so, with the offer to narrow it or load it anyway.
    void setPrefix(const QString& prefix);
    // The dialog asking for a lock prefix or warning of a broad one, while it is open.
    LockPrefixDialog* prefixDialog() const;
    // The connection in use (null when there is none).
    Workspace* workspace() const { return workspace_; }
    LockWatch* lockWatch() const;
    // Where actions on the selected lock go (acquire, release, ...).
    QToolBar* lockActionsBar() const;
    // Writes the event log (the events shown, or all) to `path`: JSON when it ends in .json,
    // else CSV.
    bool exportEventLog(const QString& path, QString& error,
                        LocksPage::EventExport what = LocksPage::EventExport::Shown) const;
    // What the window records of what it watches (WatchRecording): applied at once, and kept.
    void setRecordingSettings(const RecordingSettings& settings);
    const RecordingSettings& recordingSettings() const { return recordingSettings_; }
    // The file the connection in use records into (empty without a connection).
    QString historyPath() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // Where a connection comes from. Behaviour follows `sandbox`, never the name shown
    // (originLabel()): a profile may be named "sandbox", and a translation may change.
    struct Origin {
        bool sandbox = false;
        QString profile; // the connection profile's name; empty when given on the command line
    };

    void connectWith(const etcd::ClientOptions& options, const Origin& origin);
    QString originLabel() const;
    void createMenus(QTabWidget* pages);
    void chooseConnection();
    // File ▸ Open history…: a recording, replayed in a window of its own.
    void chooseHistory();
    // File ▸ Recording settings… and File ▸ Open this cluster's history.
    void editRecordingSettings();
    void openClusterHistory();
    // Records what the new Workspace watches, as the settings say.
    void recordWatch(const etcd::ClientOptions& options, bool sandbox);
    // File ▸ Rewind to revision…: etcd's own history of the prefix shown, from a revision it
    // still keeps, replayed in a window of its own.
    void rewindToRevision();
    void askRevisionToRewindTo(const etcd::Result<KeptRevisions>& kept);
    void endWorkspace();
    void showLiveness(bool live, const QString& why);
    void restoreSettings();
    void saveSettings() const;
    void showSessionStatus(const EndpointStatus& status);
    void stopOnRefusedPassword(const EndpointStatus& status);
    // etcd's alarms (NOSPACE: every write refused) as a problem, once each time they change.
    void showAlarms(const QList<EndpointStatus>& rows);
    void replaceConnection(const etcd::ClientOptions& options);
    // Adds to the problems area, where it stays until dismissed.
    void showProblem(ProblemKind kind, const QString& message, const QString& detail = {});
    void setPlace(const QString& endpoints);
    // The prefix given before, or last used on the cluster, or the question.
    void openPrefix(const etcd::ClientOptions& options, const Origin& origin,
                    const QString& cluster);
    void watchPrefix(const std::string& prefix); // after the check of its keys
    void startWatching(const std::string& prefix);
    void warnBroadPrefix(const std::string& prefix, qint64 keys, qint64 otherKeys);
    // Shows `dialog` (window-modal, not waited for) in place of one already open.
    void showPrefixDialog(LockPrefixDialog* dialog,
                          std::function<void(const LockPrefixDialog&)> onAccepted);
    void closePrefixDialog();

    PrefixBar* prefixBar_;
    ProblemLogModel* problems_;
    ProblemList* problemList_;
    StatusMessages* statusMessages_;
    ConnectionStatus* connectionStatus_;
    LocksPage* locksPage_;
    TimelinePage* timelinePage_;
    ClusterPage* clusterPage_;
    MetricsPage* metricsPage_;
    LabPage* labPage_;
    BlockersPage* blockersPage_;
    StagePage* stagePage_;

    SandboxMenu* sandboxMenu_ = nullptr;
    HelpMenu* helpMenu_ = nullptr;
    QAction* readOnlyAction_ = nullptr;
    bool readOnly_ = false;
    bool labDemo_ = false;

    PrefixCheck* prefixCheck_;
    QPointer<LockPrefixDialog> prefixDialog_;
    bool prefixGiven_ = false;  // setPrefix() before a connection: no question
    std::string broadAccepted_; // a prefix loaded anyway on this connection

    Origin origin_;
    QHash<quint64, QString> memberNames_;
    QString alarmsShown_; // the alarms last put among the problems, "" for none
    Sandbox* sandbox_ = nullptr;
    PasswordSource* passwords_ = nullptr;
    Origin pendingOrigin_; // the origin of the connection whose password is being found
    // Destroyed after the Workspaces (~MainWindow): it waits for their recordings' last commits.
    std::unique_ptr<RecordingThread> recordingThread_;
    RecordingSettings recordingSettings_;
    QPointer<WatchRecording> recording_; // the Workspace's in use
    bool sandboxAfresh_ = false;         // a new sandbox: its recording begins again
    Workspace* workspace_ = nullptr;
    int endingWorkspaces_ = 0;    // ended, not yet finished
    bool closeWhenEnded_ = false; // a close waits for endingWorkspaces_ to reach 0
};

} // namespace lockscope
