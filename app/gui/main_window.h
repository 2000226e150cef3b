#pragma once

#include "app/core/endpoint_status.h"
#include "etcdclient/client_options.h"

#include <QHash>
#include <QMainWindow>
#include <QTimer>
#include <chrono>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QToolBar;

namespace lockscope {

class ClusterSession;
class ClusterStatusProbe;
class EndpointStatusModel;
class HolderCard;
class LabPanel;
class LockActions;
class LockCharts;
class LatencyPlot;
class LockWatch;
class PasswordSource;
class Sandbox;
struct ConnectionOptions;

// LockScope's main window. The Locks tab: the locks under a prefix (filterable), the selected
// lock's holder and queue, and the lock events as they happen. The Cluster tab: each
// endpoint's status and a live graph of round trips by RPC method. A status bar about the
// connection in use. Nothing here waits on the network: replies arrive as queued calls and
// are dropped once the window is gone.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    static constexpr int RefreshIntervalMs = 1000;
    // At most ~30 repaints a second: smooth to the eye, and at thousands of lock events a
    // second the GUI thread's time goes to the models rather than to repainting tables.
    static constexpr std::chrono::milliseconds FrameInterval{33};

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Connects to a cluster; `origin` ("sandbox" or empty) is shown beside the endpoints.
    void connectTo(const etcd::ClientOptions& options, const QString& origin = {});
    // Connects as `connection` says, in place of the current connection. A user named without a
    // password gets it from the keyring or the password dialog first; the current connection
    // stays until then (and stays if the dialog is cancelled).
    void openConnection(const ConnectionOptions& connection, const QString& origin = {});
    // Starts a one-member etcd and connects to it once it is ready.
    void startSandbox(const QString& etcdProgram = "etcd", int members = 1);
    // Once connected, start the contention lab with a few workers and watch its locks: what a
    // new user sees first.
    void startLabDemoWhenConnected();
    // Hides every action that writes to etcd.
    void setReadOnly(bool readOnly);

    // Watches the locks under `prefix` and remembers it among the recent prefixes.
    void setPrefix(const QString& prefix);
    LockWatch* lockWatch() const { return lockWatch_; }
    // Where actions on the selected lock go (acquire, release, ...).
    QToolBar* lockActionsBar() const { return lockActionsBar_; }
    // Writes the event log to `path`: JSON when it ends in .json, else CSV.
    bool exportEventLog(const QString& path, QString& error) const;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    QWidget* createLocksTab();
    QWidget* createClusterTab();
    void chooseEventLogFile();
    void createLockActions();
    void updateLockActions();
    void acquireLock();
    void releaseLock();
    void forceReleaseSelected();
    void copySelectedKey();
    void chooseConnection();
    void disconnectSession();
    void addSandboxMenu();
    int selectedQueueRow() const;
    void selectLockAt(const QModelIndex& proxyIndex);
    void showHolder();
    void showLiveness(bool live, const QString& why);
    void restoreSettings();
    void saveSettings() const;
    void refresh();
    void showSessionStatus(const EndpointStatus& status);
    void stopOnRefusedPassword(const EndpointStatus& status);
    void replaceConnection(const etcd::ClientOptions& options);
    void showProblem(const QString& message);
    void setConnectionState(const QString& text, const QString& color);
    void setPlace(const QString& endpoints);

    LockWatch* lockWatch_;
    QComboBox* prefixBox_;
    QLabel* liveLabel_;
    QLineEdit* lockFilter_;
    QSortFilterProxyModel* lockProxy_;
    QTableView* lockTable_;
    QToolBar* lockActionsBar_;
    HolderCard* holderCard_;
    QTableView* queueTable_;
    QLineEdit* eventFilter_;
    QSortFilterProxyModel* eventProxy_;
    QTableView* eventTable_;
    QSplitter* locksSplitter_;
    QSplitter* detailSplitter_;
    QSplitter* clusterSplitter_;

    EndpointStatusModel* statusModel_;
    QTableView* statusTable_;
    LatencyPlot* latencyPlot_;
    QLabel* problemBanner_;
    QLabel* connectionLabel_;
    QLabel* endpointLabel_;
    QLabel* leaderLabel_;
    QLabel* revisionLabel_;
    QLabel* termLabel_;
    QLabel* roundTripLabel_;
    QTimer refreshTimer_;
    LockCharts* charts_;
    LabPanel* labPanel_;
    QTimer depthTimer_;
    QTimer followEvents_; // scrolls the event log to its newest row, once a frame

    QAction* acquireAction_ = nullptr;
    QAction* releaseAction_ = nullptr;
    QAction* forceReleaseAction_ = nullptr;
    QAction* pauseAction_ = nullptr;
    QAction* copyKeyAction_ = nullptr;
    QAction* readOnlyAction_ = nullptr;
    bool readOnly_ = false;
    bool labDemo_ = false;

    QString origin_;
    QHash<quint64, QString> memberNames_;
    Sandbox* sandbox_ = nullptr;
    ClusterSession* session_ = nullptr;
    PasswordSource* passwords_ = nullptr;
    QString pendingOrigin_; // the origin of the connection whose password is being found
    ClusterStatusProbe* probe_ = nullptr;
    LockActions* lockActions_ = nullptr; // ours, through session_'s client

    // Connections let go of whose client must live on until etcd has answered the release of
    // our locks and the lab's sessions: each is deleted by finishRetiring once those answers
    // are in, or when its command timeout has passed.
    struct Retiring {
        uint64_t id;
        ClusterSession* session;
        std::chrono::steady_clock::time_point deadline;
    };
    void finishRetiring(uint64_t id);
    std::vector<Retiring> retiring_;
    uint64_t retired_ = 0;           // Retiring ids handed out
    bool closeWhenReleased_ = false; // a close waits for retiring_ to empty
};

} // namespace lockscope
