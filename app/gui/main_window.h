#pragma once

#include "app/core/recording_settings.h"
#include "app/core/workspace.h"
#include "app/gui/locks_page.h"
#include "etcdclient/client_options.h"

#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <chrono>
#include <memory>

class QAction;
class QListWidget;
class QListWidgetItem;
class QMenu;
class QStackedWidget;
class QToolBar;

namespace lockscope {

class ClusterView;
class FleetModel;
class FleetPage;
class HelpMenu;
class LockActionsBar;
class LockWatch;
class LockPrefixDialog;
class ProblemList;
class ProblemLogModel;
class RecordingThread;
class Sandbox;
class SandboxMenu;
class StatusMessages;
class TaskbarBadge;
class ViewMenu;
struct ConnectionOptions;

// LockScope's main window: one or several clusters open side by side (ClusterView each, with
// its own connection, prefix and pages), a sidebar listing them with their state once there are
// two, a fleet overview of all, and one problems area where each problem names its cluster.
// The window keeps the menus (acting on the cluster shown), the status bar, the settings, the
// sandbox and the recordings' thread. Nothing here waits on the network: a Workspace ends
// asynchronously, and a close waits (with the window still open) until every ending Workspace
// has finished.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int RefreshIntervalMs = Workspace::RefreshIntervalMs; // the status bar's
    // At most ~30 repaints a second: smooth to the eye, and at thousands of lock events a
    // second the GUI thread's time goes to the models rather than to repainting tables.
    static constexpr std::chrono::milliseconds FrameInterval{33};

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Connects the cluster shown to a cluster, in place of its connection; `profile` (a
    // connection profile's name, or empty) is shown beside the endpoints. The locks of the
    // prefix given before (setPrefix) are watched, or else of the prefix last used on that
    // cluster; a cluster not seen before is asked for its lock prefix, and none is watched until
    // one is chosen. The sandbox watches the prefix shown.
    void connectTo(const etcd::ClientOptions& options, const QString& profile = {});
    // Connects as `connection` says, in place of the shown cluster's connection. A user named
    // without a password gets it from the keyring or the password dialog first; the current
    // connection stays until then (and stays if the dialog is cancelled).
    void openConnection(const ConnectionOptions& connection, const QString& profile = {});
    // Opens one more cluster beside those open, and shows it (File ▸ Connect…). `readOnly`: the
    // profile's, which hides the writing actions on this cluster whatever View ▸ Read-only says.
    ClusterView* addCluster(const ConnectionOptions& connection, const QString& profile = {},
                            bool readOnly = false);
    // Ends the shown cluster's connection (our locks there let go of) and closes its view; the
    // last one open stays, not connected.
    void closeCluster(ClusterView* view);
    // The clusters open when the window last closed, opened again (not the sandbox, which is new
    // each time); those already open are not opened twice.
    void restoreOpenClusters();
    // Starts a one-member etcd and connects the cluster shown to it once it is ready.
    void startSandbox(const QString& etcdProgram = "etcd", int members = 1);
    // Once connected, start the contention lab with a few workers and watch its locks: what a
    // new user sees first.
    void startLabDemoWhenConnected();
    // Hides every action that writes to etcd, on every cluster (View ▸ Read-only, --read-only).
    void setReadOnly(bool readOnly);

    // Watches the locks under `prefix` on the cluster shown and remembers it among the recent
    // prefixes. Before its keys are loaded, a prefix with more than PrefixCheck::MaxOtherKeys
    // keys that are not locks is said so, with the offer to narrow it or load it anyway.
    void setPrefix(const QString& prefix);
    // The cluster shown (never null: one is always open), and every one open, in the sidebar's
    // order.
    ClusterView* currentView() const { return current_; }
    QList<ClusterView*> views() const;
    void showView(ClusterView* view);
    void showFleet();
    bool fleetShown() const;
    // The dialog asking for a lock prefix or warning of a broad one, while it is open.
    LockPrefixDialog* prefixDialog() const;
    // The shown cluster's connection (null when there is none).
    Workspace* workspace() const;
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
    // The file the shown cluster records into (empty without a connection).
    QString historyPath() const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    ClusterView* newView();
    // The sidebar's entry of `view`.
    QListWidgetItem* itemOf(const ClusterView* view) const;
    void createMenus();
    void chooseConnection();
    // File ▸ Open history…: a recording, replayed in a window of its own.
    void chooseHistory();
    void editRecordingSettings();
    void keepEnding(Workspace* ending);
    void endAll();
    void restoreSettings();
    void saveSettings() const;
    // The sidebar, the fleet overview and the title, from each cluster's figures now.
    void refreshFleet();
    void setTitle();

    ProblemLogModel* problems_;
    ProblemList* problemList_;
    StatusMessages* statusMessages_;
    FleetModel* fleetModel_;
    FleetPage* fleetPage_;
    TaskbarBadge* badge_;
    QListWidget* sidebar_;
    QListWidgetItem* fleetItem_;
    QStackedWidget* stack_;
    ClusterView* current_ = nullptr;
    QTimer fleetTimer_;

    ViewMenu* viewMenu_ = nullptr;
    QMenu* lockMenu_ = nullptr;
    SandboxMenu* sandboxMenu_ = nullptr;
    HelpMenu* helpMenu_ = nullptr;
    QAction* readOnlyAction_ = nullptr;
    QAction* presentationAction_ = nullptr;       // the shown cluster's stage's, in the View menu
    QMetaObject::Connection describesLockTarget_; // the Lock menu to the shown cluster's bar
    QPointer<LockActionsBar> lockMenuBar_;        // whose actions the Lock menu holds
    bool readOnly_ = false;

    Sandbox* sandbox_ = nullptr;
    // Destroyed after the Workspaces (~MainWindow): it waits for their recordings' last commits.
    std::unique_ptr<RecordingThread> recordingThread_;
    RecordingSettings recordingSettings_;
    bool sandboxAfresh_ = false;  // a new sandbox: its recording begins again
    int endingWorkspaces_ = 0;    // ended, not yet finished
    bool closeWhenEnded_ = false; // a close waits for endingWorkspaces_ to reach 0
    bool closing_ = false;        // closed once: the settings are saved
};

} // namespace lockscope
