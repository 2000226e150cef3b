#include "app/gui/stage_page.h"

#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "app/gui/lock_actions_bar.h"
#include "app/gui/stage_scene_builder.h"
#include "widgets/stage_view.h"

#include <QAction>
#include <QEvent>
#include <QLabel>
#include <QMenu>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

namespace lockscope {

namespace {
std::optional<StageDeparture> departureOf(etcd::LockEventKind kind) {
    switch (kind) {
    case etcd::LockEventKind::Released: return StageDeparture::Released;
    case etcd::LockEventKind::Cancelled: return StageDeparture::Cancelled;
    case etcd::LockEventKind::Expired: return StageDeparture::Expired;
    case etcd::LockEventKind::ForceReleased: return StageDeparture::ForceReleased;
    case etcd::LockEventKind::Lost: return StageDeparture::Lost;
    case etcd::LockEventKind::Enqueued:
    case etcd::LockEventKind::Acquired:
    case etcd::LockEventKind::Proclaimed: break;
    }
    return std::nullopt;
}
} // namespace

StagePage::StagePage(LockActionsBar* lockActions, QWidget* parent)
    : QWidget(parent)
    , lockActions_(lockActions)
    , view_(new StageView)
    , scroll_(new QScrollArea)
    , layout_(new QVBoxLayout(this))
    , presentation_(new QAction(tr("&Presentation mode"), this)) {
    presentation_->setObjectName("presentationAction");
    presentation_->setCheckable(true);
    presentation_->setShortcut(QKeySequence(Qt::Key_F11));
    presentation_->setToolTip(tr("The stage full screen in large type (F11; Esc leaves)"));
    connect(presentation_, &QAction::toggled, this, &StagePage::setPresenting);

    auto* present = new QToolButton;
    present->setDefaultAction(presentation_);
    auto* legend = new QLabel(tr("A lane per lock: the holder in front, the waiters behind in "
                                 "fencing-token order; the ring is the lease's TTL left (orange "
                                 "when low); blue: this window's own; ringed in amber: the "
                                 "session picked on the Blockers page. Right-click a token for "
                                 "its actions."));
    legend->setWordWrap(true); // on one line it would make the window wider than a small screen
    auto* bar = new QHBoxLayout;
    bar->addWidget(legend, 1);
    bar->addWidget(present);
    scroll_->setObjectName("stageScroll");
    scroll_->setWidget(view_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    layout_->addLayout(bar);
    layout_->addWidget(scroll_, 1);

    connect(view_, &StageView::tokenMenuRequested, this,
            [this](const QString& lock, const StageToken& token, const QPoint& at) {
                QMenu menu(this);
                fillTokenMenu(menu, lock, token);
                menu.exec(at);
            });
}

StagePage::~StagePage() {
    delete presentationWindow_; // a window of its own, with the stage in it
}

void StagePage::setWorkspace(Workspace* workspace) {
    if (workspace_) {
        workspace_->lockWatch()->disconnect(this);
        if (workspace_->lockActions())
            workspace_->lockActions()->disconnect(this);
    }
    workspace_ = workspace;
    ownLocks_.clear();
    if (workspace) {
        LockWatch* watch = workspace->lockWatch();
        connect(watch, &LockWatch::refreshed, this, &StagePage::rebuild);
        connect(watch, &LockWatch::pickedSessionChanged, this, &StagePage::rebuild);
        connect(watch, &LockWatch::eventsArrived, this, &StagePage::showDepartures);
        if (LockActions* actions = workspace->lockActions())
            connect(actions, &LockActions::ownLockChanged, this, [this](const QString& name) {
                ownLocks_.insert(name);
                rebuild();
            });
    }
    rebuild();
}

void StagePage::rebuild() {
    if (!view_->isVisible() && workspace_)
        return; // drawn when shown (showEvent)
    if (!workspace_ || workspace_->isFinished()) {
        view_->setScene({});
        return;
    }
    QHash<QByteArray, bool> ownKeys;
    if (LockActions* actions = workspace_->lockActions())
        for (const QString& name : std::as_const(ownLocks_))
            if (const OwnLock* own = actions->ownLock(name); own && own->alive())
                ownKeys.insert(own->key, own->paused);
    const LockWatch* watch = workspace_->lockWatch();
    view_->setScene(stageSceneOf(watch->state(), ownKeys, MaxLanes, watch->pickedSession()));
}

void StagePage::showDepartures(const std::vector<etcd::LockEvent>& events) {
    if (!view_->isVisible())
        return;
    for (const etcd::LockEvent& e : events)
        if (const auto how = departureOf(e.kind))
            view_->showDeparture(displayKeyText(e.lock), displayKeyText(e.key), e.createRevision,
                                 *how);
}

void StagePage::showSplitBrain(const QString& lock, double, double, qint64 firstToken,
                               qint64 secondToken) {
    view_->showSplitBrain(lock, firstToken, secondToken);
}

void StagePage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    rebuild();
}

bool StagePage::aimAt(const QString& lock, const StageToken& token) {
    if (!workspace_ || workspace_->isFinished())
        return false;
    std::string problem;
    const auto name = parseKeyText(lock.toStdString(), problem);
    if (!name)
        return false;
    workspace_->lockWatch()->selectLock(*name);
    return lockActions_->aimAt(token.key);
}

void StagePage::fillTokenMenu(QMenu& menu, const QString& lock, const StageToken& token) {
    menu.setObjectName("stageTokenMenu");
    menu.addSection(tr("#%1 on %2").arg(token.fencingToken).arg(lock));
    QAction* force = menu.addAction(tr("Force release…"), this, [this, lock, token] {
        if (aimAt(lock, token))
            lockActions_->forceReleaseAction()->trigger();
    });
    force->setObjectName("stageForceReleaseAction");
    // Read-only hides what writes, as on the Locks page.
    force->setVisible(lockActions_->forceReleaseAction()->isVisible());
    QAction* pause = menu.addAction(tr("Pause keepalive"), this, [this, lock, token](bool paused) {
        if (aimAt(lock, token))
            lockActions_->pauseAction()->setChecked(paused);
    });
    pause->setObjectName("stagePauseAction");
    pause->setCheckable(true);
    pause->setChecked(token.paused);
    pause->setVisible(lockActions_->pauseAction()->isVisible());
    pause->setEnabled(token.ours && token.fencingToken > 0);
    if (!token.ours)
        pause->setToolTip(tr("Only a lock this window holds has keepalives to pause"));
    QAction* copy = menu.addAction(tr("Copy key"), this, [this, lock, token] {
        if (aimAt(lock, token))
            lockActions_->copyKeyAction()->trigger();
    });
    copy->setObjectName("stageCopyKeyAction");
    menu.setToolTipsVisible(true);
}

void StagePage::setPresenting(bool presenting) {
    if (presenting == this->presenting())
        return;
    if (presenting) {
        presentationWindow_ = new QWidget(nullptr, Qt::Window);
        presentationWindow_->setObjectName("stagePresentation");
        presentationWindow_->setWindowTitle(tr("LockScope stage"));
        auto* layout = new QVBoxLayout(presentationWindow_);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(scroll_);                    // moves the stage there
        presentationWindow_->addAction(presentation_); // F11 there too
        auto* leave = new QShortcut(QKeySequence(Qt::Key_Escape), presentationWindow_);
        connect(leave, &QShortcut::activated, presentation_,
                [this] { presentation_->setChecked(false); });
        presentationWindow_->installEventFilter(this);
        view_->setPresentation(true);
        // On the window's screen, and covering it also where no window manager honours the
        // full-screen request (a bare X server showed it at its default size).
        presentationWindow_->setGeometry(window()->screen()->geometry());
        presentationWindow_->showFullScreen();
    } else {
        view_->setPresentation(false);
        layout_->addWidget(scroll_, 1);
        presentationWindow_->removeEventFilter(this);
        presentationWindow_->deleteLater();
        presentationWindow_ = nullptr;
        presentation_->setChecked(false);
    }
    rebuild();
}

bool StagePage::eventFilter(QObject* watched, QEvent* event) {
    // Closed by the window manager: back on the page, as with Esc.
    if (watched == presentationWindow_ && event->type() == QEvent::Close)
        presentation_->setChecked(false);
    return QWidget::eventFilter(watched, event);
}

} // namespace lockscope
