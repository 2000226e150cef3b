#pragma once

#include <QPointer>
#include <QToolBar>

class QAbstractItemView;
class QAction;

namespace lockscope {

class Workspace;

// The actions on the selected lock, above its queue: acquire (a dialog), release, pause
// keepalive, force release (after a confirmation) and copy key; and for elections campaign (a
// dialog), proclaim and resign. They act through the
// Workspace's LockActions on the lock its LockWatch has selected; Force release and Copy key on
// the row selected in `queueView`, else on the lock's holder, and their tooltips say whose key.
// Read-only hides the ones that write.
//
// Those two tooltips are written when one is about to show, not with every refresh: a changed
// action re-sets its tool button, whose new size hint lays out every parent up to the window's
// tab widget, which then repaints all of itself. With the selected lock's holder changing at
// each batch of events, that was a whole-window repaint a frame.
class LockActionsBar : public QToolBar {
    Q_OBJECT
public:
    explicit LockActionsBar(QAbstractItemView* queueView, QWidget* parent = nullptr);

    void setWorkspace(Workspace* workspace); // null: none
    void setReadOnly(bool readOnly);
    QList<QAction*> lockActions() const;
    // Enables what applies to the selection and the locks we hold now.
    void updateLockActions();
    // Aims Force release and Copy key at the selected lock's key `keyText` (as displayKey
    // writes it) by selecting its queue row; false when the queue has no such key.
    bool aimAt(const QString& keyText);
    QAction* forceReleaseAction() const { return forceReleaseAction_; }
    QAction* pauseAction() const { return pauseAction_; }
    QAction* copyKeyAction() const { return copyKeyAction_; }
    // Writes Force release's and Copy key's tooltips for their target now. The bar's buttons
    // call it when they are about to show one; a menu holding the actions calls it as it opens,
    // and `describeTargetIn(menu)` before it shows one.
    void describeTarget();
    void describeTargetIn(QWidget* widget);

signals:
    void message(const QString& text, int timeoutMs);
    void problem(const QString& text);
    // How long our own acquire waited before the lock was ours.
    void ownWaitMeasured(double unixSeconds, double milliseconds);

private:
    void createLockActions();
    void connectLockActions();
    void acquireLock();
    void releaseLock();
    void campaign();
    // The selected lock's name to pre-fill Campaign… (an election) or Acquire… (any other
    // recipe); empty when the selected lock is of the other kind.
    QString selectedNameFor(bool election) const;
    void proclaim();
    void forceReleaseTarget();
    void copyTargetKey();
    // The queue row Force release and Copy key act on: the one selected in the queue view,
    // else the holder's (row 0); -1 when the selected lock has no keys.
    int targetQueueRow() const;
    bool eventFilter(QObject* watched, QEvent* event) override;

    QAbstractItemView* queueView_;
    QPointer<Workspace> workspace_;
    QAction* acquireAction_ = nullptr;
    QAction* releaseAction_ = nullptr;
    QAction* forceReleaseAction_ = nullptr;
    QAction* pauseAction_ = nullptr;
    QAction* copyKeyAction_ = nullptr;
    QAction* campaignAction_ = nullptr;
    QAction* proclaimAction_ = nullptr;
    QAction* resignAction_ = nullptr;
    bool readOnly_ = false;
};

} // namespace lockscope
