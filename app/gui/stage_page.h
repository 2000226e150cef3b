#pragma once

#include "etcdclient/locks/lock_types.h"
#include "widgets/stage_scene.h"

#include <QPointer>
#include <QSet>
#include <QWidget>

class QAction;
class QMenu;
class QScrollArea;
class QVBoxLayout;

namespace lockscope {

class LockActionsBar;
class StageView;
class Workspace;

// The Stage tab: the locks under the prefix as a stage (StageView), live from the Workspace's
// LockWatch, with the lab's split brains flashed on it. Right-click a token to force release it,
// pause its keepalive (ours) or copy its key: the Locks page's LockActionsBar does each, on that
// key. Presentation mode (F11, Esc leaves) shows the stage full screen in large type.
class StagePage : public QWidget {
    Q_OBJECT
public:
    // More lanes than fit any screen cost drawing time and say nothing more.
    static constexpr int MaxLanes = 100;

    explicit StagePage(LockActionsBar* lockActions, QWidget* parent = nullptr);
    ~StagePage() override;

    void setWorkspace(Workspace* workspace); // null: none
    // Checkable, F11: the stage full screen in large type. For the View menu.
    QAction* presentationAction() const { return presentation_; }
    bool presenting() const { return presentationWindow_ != nullptr; }
    StageView* view() const { return view_; }

    // A split brain the lab's checker found on `lock` (as displayKey writes it).
    void showSplitBrain(const QString& lock, double fromUnixSeconds, double toUnixSeconds,
                        qint64 firstToken, qint64 secondToken);
    // The right-click menu of a token: Force release…, Pause keepalive (ours), Copy key.
    void fillTokenMenu(QMenu& menu, const QString& lock, const StageToken& token);

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void showDepartures(const std::vector<etcd::LockEvent>& events);
    void setPresenting(bool presenting);
    // Points the lock actions at `token` of `lock`: selects both in the Locks page.
    bool aimAt(const QString& lock, const StageToken& token);

    LockActionsBar* lockActions_;
    QPointer<Workspace> workspace_;
    StageView* view_;
    QScrollArea* scroll_;
    QVBoxLayout* layout_;
    QAction* presentation_;
    QWidget* presentationWindow_ = nullptr;
    QSet<QString> ownLocks_; // the names this window has taken, to find its keys
};

} // namespace lockscope
