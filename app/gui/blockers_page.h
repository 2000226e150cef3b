#pragma once

#include "etcdclient/locks/wait_for_graph.h"

#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTreeView;

namespace lockscope {

class BlockersModel;
class WaitGraphView;
class Workspace;

// The Blockers tab: who waits for whom across every lock under the prefix (etcd::WaitForGraph,
// kept by the LockWatch). Deadlocks first, in red, each with "Break deadlock…": the lease the
// graph names is revoked after a confirmation that follows the deadlock while it is open (and
// refuses once it ended). Then the root blockers, most sessions blocked first, each with its
// tree of waiters; below, the same as a drawing (WaitGraphView, the first MaxDrawnSessions
// sessions), whose boxes select their rows. The selected session is picked
// (LockWatch::pickSession): the Locks page and the Stage mark its locks and keys until another
// is picked or Unmark is pressed. Read once a second, whichever tab is shown, so a
// deadlock reaches the problems area within a second of the key that closed it (less often when a
// read takes over a fifth of that). Only the deadlocks are looked for while the page is hidden:
// its tree and drawing are brought up to date when it is shown.
class BlockersPage : public QWidget {
    Q_OBJECT
public:
    static constexpr int RefreshIntervalMs = 1000;
    static constexpr int MaxDrawnSessions = 400;

    explicit BlockersPage(QWidget* parent = nullptr);
    ~BlockersPage() override;

    void setWorkspace(Workspace* workspace);
    BlockersModel* model() const { return model_; }
    WaitGraphView* graphView() const { return graphView_; }
    QString summary() const; // the text above the tree, for tests
    void refresh();
    // Asks to break the deadlock of the selected row (the lease it names).
    void breakSelectedDeadlock();
    // After a reset of `model`: its rows that count the waits not listed span `view` (their
    // text is their only cell). For this page's tree and the replay window's.
    static void spanUnlistedRows(QTreeView& view, const BlockersModel& model);

signals:
    // A deadlock among these sessions began, or ended: the problems area lists it once while it
    // lasts. `id` names the deadlock (its sessions), `text` says what to do.
    void deadlockBegan(const QString& id, const QString& text);
    void deadlockEnded(const QString& id);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void updateButtons();
    // The drawing from the graph, after the tree changed.
    void drawGraph();
    void selectSession(const QString& lease);
    // The current row's session becomes the picked one; a row lost to a reset keeps the pick.
    void pickCurrentSession();
    // After a reset: the picked session's row is current again.
    void showPickedSession();
    void unmark();
    // The deadlock `lease` is in now, if it is in one.
    const etcd::Deadlock* deadlockOf(qint64 lease) const;
    QString breakText(const etcd::Deadlock* deadlock, qint64 lease) const;

    QPointer<Workspace> workspace_;
    BlockersModel* model_;
    QLabel* summary_;
    QTreeView* view_;
    WaitGraphView* graphView_;
    QPushButton* break_;
    QPushButton* unmark_;
    QTimer refreshTimer_;
    QSet<QString> deadlocksShown_; // by id, for deadlockBegan/Ended
    bool behind_ = false; // hidden at the last refresh: the tree and drawing wait for a show
};

} // namespace lockscope
