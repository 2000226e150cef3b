#pragma once

#include "widgets/frame_pacer.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <chrono>

class QLabel;
class QLineEdit;
class QProgressBar;
class QSettings;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace lockscope {

class HolderCard;
class LockActionsBar;
class LockListProxy;
class Workspace;

// The Locks tab: the locks under the prefix (filterable), the selected lock's holder card and
// queue with the actions on them (LockActionsBar), and the lock events as they happen. It shows the
// models of one Workspace's LockWatch and acts through its LockActions; without a Workspace the
// tables are empty and the actions disabled.
class LocksPage : public QWidget {
    Q_OBJECT
public:
    // Scrolling to the newest event, and showing the holder and actions anew, at most this
    // often: once a frame.
    static constexpr std::chrono::milliseconds FollowInterval{33};

    explicit LocksPage(QWidget* parent = nullptr);

    // The page lets go of the previous Workspace's models (null: none).
    void setWorkspace(Workspace* workspace);
    void setReadOnly(bool readOnly);
    // The actions on the selected lock (acquire, release, ...).
    LockActionsBar* lockActionsBar() const { return lockActionsBar_; }
    void focusLockFilter();

    // Which events an export writes: those the event filter shows, or every one held.
    enum class EventExport { Shown, All };
    // Writes the event log to `path`: JSON when it ends in .json, else CSV.
    bool exportEventLog(const QString& path, QString& error,
                        EventExport what = EventExport::Shown) const;
    // Asks where (and, while the filter hides some, whether the events shown or all), then
    // exports.
    void chooseEventLogFile();

    void saveState(QSettings& settings) const;
    void restoreState(const QSettings& settings);

signals:
    // For the status bar.
    void message(const QString& text, int timeoutMs);
    // For the problems area, where it stays until dismissed.
    void problem(const QString& text);
    // How long our own acquire waited before the lock was ours, for the Timeline tab.
    void ownWaitMeasured(double unixSeconds, double milliseconds);

private:
    QWidget* createLockPanel();
    QWidget* createDetailPanel();
    QWidget* createEventPanel();
    void selectLockAt(const QModelIndex& proxyIndex);
    void showHolder();
    void showOwnLock(); // of the selected lock, if this window took it
    void followNewEvents();
    // The holder card and the actions after the models changed: at once after a quiet frame,
    // else at the frame's end.
    void refreshSoon();
    void refreshNow();
    // While the locks load: the keys read from etcd, then the locks shown of those read.
    void showLoadProgress();

    QPointer<Workspace> workspace_;
    QLineEdit* lockFilter_;
    QProgressBar* loadProgress_;
    LockListProxy* lockProxy_;
    QTableView* lockTable_;
    QLabel* detailHeading_; // "Holder and queue", or "Leader and candidates"
    HolderCard* holderCard_;
    QTableView* queueTable_;
    LockActionsBar* lockActionsBar_;
    QLineEdit* eventFilter_;
    QSortFilterProxyModel* eventProxy_;
    QTableView* eventTable_;
    QSplitter* locksSplitter_;
    QSplitter* detailSplitter_;
    QTimer followEvents_;     // scrolls the event log to its newest row, once a frame
    FramePacer refreshPacer_; // the holder card and the actions, at most once a frame
};

} // namespace lockscope
