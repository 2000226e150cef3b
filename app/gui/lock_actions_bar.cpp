#include "app/gui/lock_actions_bar.h"

#include "app/core/force_release_standing.h"
#include "app/core/key_text.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_queue_model.h"
#include "app/core/lock_watch.h"
#include "app/core/workspace.h"
#include "etcdclient/lease_ttl.h"
#include "widgets/acquire_dialog.h"
#include "widgets/campaign_dialog.h"

#include <QAbstractItemView>
#include <QAction>
#include <QClipboard>
#include <QDateTime>
#include <QEvent>
#include <QGuiApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

namespace lockscope {

namespace {
const char* const AcquireTtlSetting = "acquire/ttlSeconds";
const char* const AcquireTryOnlySetting = "acquire/tryOnly";
} // namespace

LockActionsBar::LockActionsBar(QAbstractItemView* queueView, QWidget* parent)
    : QToolBar(parent)
    , queueView_(queueView) {
    setObjectName("lockActionsBar");
    setIconSize(QSize(16, 16));
    createLockActions();
    for (QAction* described : {forceReleaseAction_, copyKeyAction_})
        describeTargetIn(widgetForAction(described));
    updateLockActions();
    describeTarget();
}

void LockActionsBar::describeTargetIn(QWidget* widget) {
    widget->installEventFilter(this);
}

bool LockActionsBar::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::ToolTip)
        describeTarget();
    return QToolBar::eventFilter(watched, event);
}

void LockActionsBar::setWorkspace(Workspace* workspace) {
    if (workspace_ && workspace_->lockActions())
        workspace_->lockActions()->disconnect(this);
    workspace_ = workspace;
    connectLockActions();
    updateLockActions();
}

void LockActionsBar::connectLockActions() {
    LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    if (!actions)
        return;
    connect(actions, &LockActions::acquiring, this, [this, actions](const QString& name) {
        const OwnLock* own = actions->ownLock(name);
        emit message(own && own->candidacy ? tr("Campaigning in %1… (Resign withdraws)").arg(name)
                     : own && own->tryOnly ? tr("Trying %1…").arg(name)
                                           : tr("Waiting for %1… (Release cancels)").arg(name),
                     0);
        updateLockActions();
    });
    connect(actions, &LockActions::ownLockChanged, this, &LockActionsBar::updateLockActions);
    connect(actions, &LockActions::acquired, this,
            [this, actions](const QString& name, const QByteArray&, qint64 token) {
                const OwnLock* own = actions->ownLock(name);
                emit message((own && own->candidacy ? tr("Elected in %1 (revision %2)")
                                                    : tr("Acquired %1 (fencing token %2)"))
                                 .arg(name)
                                 .arg(token),
                             5000);
                updateLockActions();
            });
    connect(actions, &LockActions::notAcquired, this,
            [this](const QString& name, const QString& reason) {
                emit message(tr("Did not acquire %1: %2").arg(name, reason), 8000);
                updateLockActions();
            });
    connect(actions, &LockActions::acquireFailed, this,
            [this](const QString& name, const QString& reason) {
                emit problem(tr("Could not acquire %1: %2").arg(name, reason));
            });
    connect(actions, &LockActions::retrying, this,
            [this](const QString& name, int attempt, double delaySeconds, const QString& reason) {
                emit message(tr("Waiting for %1: retrying in %2 s (attempt %3): %4")
                                 .arg(name)
                                 .arg(delaySeconds, 0, 'f', 1)
                                 .arg(attempt)
                                 .arg(reason),
                             0);
            });
    connect(actions, &LockActions::released, this, [this, actions](const QString& name) {
        const OwnLock* own = actions->ownLock(name);
        emit message((own && own->candidacy ? tr("Resigned from %1") : tr("Released %1")).arg(name),
                     5000);
        updateLockActions();
    });
    connect(actions, &LockActions::releaseUnconfirmed, this,
            [this](const QString& name, const QString& reason) {
                emit problem(tr("The release of %1 is not confirmed: %2. Our key may still hold "
                                "the lock; LockScope asks etcd again until it is gone")
                                 .arg(name, reason));
                emit message(tr("Release of %1 not confirmed (see Problems)").arg(name), 8000);
            });
    connect(actions, &LockActions::lost, this, [this](const QString& name, const QString& reason) {
        emit problem(tr("Lost the lock %1: %2").arg(name, reason));
        emit message(tr("Lost the lock %1 (see Problems)").arg(name), 8000);
        updateLockActions();
    });
    connect(actions, &LockActions::proclaimed, this,
            [this](const QString& name, const QString& proposal) {
                emit message(tr("Proclaimed \"%1\" in %2").arg(proposal, name), 5000);
            });
    connect(actions, &LockActions::proclaimFailed, this,
            [this](const QString& name, const QString& reason) {
                emit message(tr("Did not proclaim in %1: %2").arg(name, reason), 8000);
            });
    connect(actions, &LockActions::forceReleased, this,
            [this](const QByteArray& key, const QString& outcome) {
                emit message(
                    tr("Force release of %1: %2")
                        .arg(QString::fromStdString(displayKey(key.toStdString())), outcome),
                    8000);
            });
}

void LockActionsBar::createLockActions() {
    acquireAction_ = addAction(tr("Acquire…"), this, &LockActionsBar::acquireLock);
    acquireAction_->setShortcut(QKeySequence("Ctrl+Shift+A"));
    acquireAction_->setToolTip(tr("Take a lock yourself, waiting in the queue or only if free "
                                  "(Ctrl+Shift+A)"));
    releaseAction_ = addAction(tr("Release"), this, &LockActionsBar::releaseLock);
    releaseAction_->setShortcut(QKeySequence("Ctrl+Shift+R"));
    releaseAction_->setToolTip(tr("Release (or stop waiting for) the selected lock that this "
                                  "window took (Ctrl+Shift+R)"));
    pauseAction_ = addAction(tr("Pause keepalive"));
    pauseAction_->setCheckable(true);
    pauseAction_->setToolTip(tr("Stop renewing the lease of a lock we hold: it expires and the "
                                "next waiter takes over, live"));
    connect(pauseAction_, &QAction::toggled, this, [this](bool paused) {
        LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
        if (!actions)
            return;
        const QString name = workspace_->lockWatch()->selectedLockText();
        if (actions->busy(name) && actions->paused(name) != paused)
            actions->setPaused(name, paused);
    });
    forceReleaseAction_ =
        addAction(tr("Force release…"), this, &LockActionsBar::forceReleaseTarget);
    forceReleaseAction_->setShortcut(QKeySequence("Ctrl+Shift+Del"));
    copyKeyAction_ = addAction(tr("Copy key"), this, &LockActionsBar::copyTargetKey);
    copyKeyAction_->setShortcut(QKeySequence("Ctrl+Shift+C"));
    addSeparator();
    campaignAction_ = addAction(tr("Campaign…"), this, &LockActionsBar::campaign);
    campaignAction_->setToolTip(tr("Become a candidate in an election with a proposal, as "
                                   "etcdctl elect does: we lead once every older candidate is "
                                   "gone"));
    proclaimAction_ = addAction(tr("Proclaim…"), this, &LockActionsBar::proclaim);
    proclaimAction_->setToolTip(tr("Put a new proposal as our value in the selected election "
                                   "while we lead it"));
    resignAction_ = addAction(tr("Resign"), this, &LockActionsBar::releaseLock);
    resignAction_->setToolTip(tr("Give up our leadership (or candidacy) in the selected "
                                 "election: the next candidate leads"));
    for (QAction* a : lockActions())
        a->setShortcutContext(Qt::WindowShortcut);
    acquireAction_->setObjectName("acquireAction");
    releaseAction_->setObjectName("releaseAction");
    pauseAction_->setObjectName("pauseAction");
    forceReleaseAction_->setObjectName("forceReleaseAction");
    copyKeyAction_->setObjectName("copyKeyAction");
    campaignAction_->setObjectName("campaignAction");
    proclaimAction_->setObjectName("proclaimAction");
    resignAction_->setObjectName("resignAction");
}

QList<QAction*> LockActionsBar::lockActions() const {
    return {acquireAction_, releaseAction_,  pauseAction_,    forceReleaseAction_,
            copyKeyAction_, campaignAction_, proclaimAction_, resignAction_};
}

int LockActionsBar::targetQueueRow() const {
    const QAbstractItemModel* queue = queueView_->model();
    if (!workspace_ || !queue || queue->rowCount() == 0)
        return -1;
    const QModelIndex current =
        queueView_->selectionModel() ? queueView_->selectionModel()->currentIndex() : QModelIndex();
    return current.isValid() && current.row() < queue->rowCount() ? current.row() : 0;
}

void LockActionsBar::describeTarget() {
    const int row = targetQueueRow();
    if (row < 0) {
        const QString none = tr("(select a lock that has a holder, or a row of its queue)");
        forceReleaseAction_->setToolTip(tr("Take a key away from whoever holds it %1").arg(none));
        copyKeyAction_->setToolTip(tr("Copy a lock key %1").arg(none));
        return;
    }
    const QString key = workspace_->lockWatch()->queue()->entryAt(row).keyText;
    const QString whom = row == 0 ? tr("the holder's key %1").arg(key)
                                  : tr("the key %1 (waiter %2 in the queue)").arg(key).arg(row);
    forceReleaseAction_->setToolTip(
        tr("Force release %1: revoke its lease, or delete it when it has none (asks first; "
           "select a queue row to pick another key)")
            .arg(whom));
    copyKeyAction_->setToolTip(tr("Copy %1").arg(whom));
}

void LockActionsBar::updateLockActions() {
    LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    const QString name = workspace_ ? workspace_->lockWatch()->selectedLockText() : QString();
    const bool ours = actions && actions->busy(name);
    const OwnLock* own = actions ? actions->ownLock(name) : nullptr;
    const bool held = ours && own && own->state == OwnLock::State::Held;
    const bool candidacy = ours && own && own->candidacy;
    for (QAction* writes : {acquireAction_, releaseAction_, pauseAction_, forceReleaseAction_,
                            campaignAction_, proclaimAction_, resignAction_})
        writes->setVisible(!readOnly_);
    acquireAction_->setEnabled(actions != nullptr);
    campaignAction_->setEnabled(actions != nullptr);
    proclaimAction_->setEnabled(held && candidacy);
    resignAction_->setEnabled(candidacy);
    resignAction_->setText(candidacy && !held ? tr("Withdraw candidacy") : tr("Resign"));
    // A lost lock is not ours: nothing to release, and Acquire takes it anew.
    releaseAction_->setEnabled(ours && !candidacy);
    releaseAction_->setText(ours && !held ? tr("Cancel wait") : tr("Release"));
    pauseAction_->setEnabled(held);
    {
        const QSignalBlocker quiet(pauseAction_);
        pauseAction_->setChecked(ours && actions->paused(name));
    }
    const int target = targetQueueRow();
    forceReleaseAction_->setEnabled(actions && target >= 0);
    copyKeyAction_->setEnabled(target >= 0);
}

bool LockActionsBar::aimAt(const QString& keyText) {
    const LockQueueModel* queue = workspace_ ? workspace_->lockWatch()->queue() : nullptr;
    if (!queue || queueView_->model() != queue)
        return false;
    for (int row = 0; row < queue->rowCount(); ++row)
        if (queue->entryAt(row).keyText == keyText) {
            queueView_->setCurrentIndex(queue->index(row, 0));
            updateLockActions();
            return true;
        }
    return false;
}

void LockActionsBar::setReadOnly(bool readOnly) {
    readOnly_ = readOnly;
    updateLockActions();
}

void LockActionsBar::acquireLock() {
    if (!workspace_ || !workspace_->lockActions() || readOnly_)
        return;
    AcquireDialog dialog(selectedNameFor(false), this);
    // The TTL and the only-if-free choice of the last Acquire, also after a restart.
    QSettings settings;
    dialog.setTtlSeconds(settings.value(AcquireTtlSetting, dialog.ttlSeconds()).toLongLong());
    dialog.setTryOnly(settings.value(AcquireTryOnlySetting, false).toBool());
    const auto text = [](const std::string& problem) { return QString::fromStdString(problem); };
    dialog.setChecks({[text](const QString& name) {
                          std::string problem;
                          return parseKeyText(name.toStdString(), problem) ? QString()
                                                                           : text(problem);
                      },
                      [text](qint64 ttl) { return text(etcd::leaseTtlProblem(ttl)); },
                      [text](qint64 ttl) { return text(etcd::longLeaseTtlWarning(ttl)); }});
    if (dialog.exec() != QDialog::Accepted)
        return;
    settings.setValue(AcquireTtlSetting, dialog.ttlSeconds());
    settings.setValue(AcquireTryOnlySetting, dialog.tryOnly());
    // The connection may have changed while the dialog was open: the actions of the one now.
    LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    if (!actions)
        return;
    const QString name = dialog.lockName();
    const auto startedAt = std::chrono::steady_clock::now();
    // Our own wait goes to the Timeline tab's graph once the lock is ours.
    auto* once = new QObject(actions);
    connect(actions, &LockActions::acquired, once,
            [this, once, name, startedAt](const QString& acquired) {
                if (acquired != name)
                    return;
                const double waited = std::chrono::duration<double, std::milli>(
                                          std::chrono::steady_clock::now() - startedAt)
                                          .count();
                emit ownWaitMeasured(QDateTime::currentMSecsSinceEpoch() / 1000.0, waited);
                once->deleteLater();
            });
    connect(actions, &LockActions::notAcquired, once, [once, name](const QString& failed) {
        if (failed == name)
            once->deleteLater();
    });
    actions->acquire(name, dialog.ttlSeconds(), dialog.tryOnly(),
                     dialog.serverLock()  ? LockBackendKind::ServerLock
                     : dialog.singleKey() ? LockBackendKind::SingleKey
                                          : LockBackendKind::Mutex);
}

QString LockActionsBar::selectedNameFor(bool election) const {
    const LockWatch* watch = workspace_->lockWatch();
    const bool isElection = watch->queue()->kind() == etcd::QueueKind::Election;
    return isElection == election ? watch->selectedLockText() : QString();
}

void LockActionsBar::campaign() {
    LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    if (!actions || readOnly_)
        return;
    CampaignDialog dialog(selectedNameFor(true), this);
    dialog.setChecks(
        {[](const QString& name) {
             std::string problem;
             return parseKeyText(name.toStdString(), problem) ? QString()
                                                              : QString::fromStdString(problem);
         },
         [](qint64 ttl) { return QString::fromStdString(etcd::leaseTtlProblem(ttl)); }});
    if (dialog.exec() != QDialog::Accepted || !workspace_ || !workspace_->lockActions())
        return;
    workspace_->lockActions()->campaign(dialog.electionName(), dialog.proposal(),
                                        dialog.ttlSeconds());
}

void LockActionsBar::proclaim() {
    LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    const QString name = workspace_ ? workspace_->lockWatch()->selectedLockText() : QString();
    const OwnLock* own = actions ? actions->ownLock(name) : nullptr;
    if (!own || !own->candidacy || readOnly_)
        return;
    bool ok = false;
    const QString proposal =
        QInputDialog::getText(this, tr("Proclaim"), tr("New proposal for %1:").arg(name),
                              QLineEdit::Normal, QString::fromStdString(own->proposal), &ok);
    if (ok && workspace_ && workspace_->lockActions())
        workspace_->lockActions()->proclaim(name, proposal);
}

void LockActionsBar::releaseLock() {
    LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    const QString name = workspace_ ? workspace_->lockWatch()->selectedLockText() : QString();
    if (!actions || !actions->busy(name))
        return;
    actions->release(name);
}

void LockActionsBar::forceReleaseTarget() {
    const int row = targetQueueRow();
    LockActions* actions = workspace_ ? workspace_->lockActions() : nullptr;
    if (!actions || readOnly_ || row < 0)
        return;
    const LockQueueModel* queue = workspace_->lockWatch()->queue();
    const LockQueueModel::Entry& entry = queue->entryAt(row);
    const ForceReleasePlan plan{QByteArray::fromStdString(entry.key), entry.lease,
                                entry.createRevision};
    QMessageBox confirm(QMessageBox::Warning, tr("Force release"), QString(), QMessageBox::Cancel,
                        this);
    QPushButton* act = confirm.addButton(entry.lease ? tr("Revoke lease") : tr("Delete key"),
                                         QMessageBox::DestructiveRole);
    confirm.setDefaultButton(QMessageBox::Cancel);
    // The queue moves on while the user reads: the text follows the key it named, and refuses
    // once that key is gone. What is done is always the plan: that key, that lease.
    auto follow = [&confirm, act, plan, queue] {
        const ForceReleaseStanding standing = standingOf(plan, *queue);
        confirm.setText(forceReleaseText(plan, standing));
        act->setEnabled(!standing.gone());
    };
    follow();
    connect(workspace_->lockWatch(), &LockWatch::refreshed, &confirm, follow);
    confirm.exec();
    if (confirm.clickedButton() != act || !workspace_ || !workspace_->lockActions() ||
        standingOf(plan, *queue).gone())
        return;
    workspace_->lockActions()->forceRelease(plan);
}

void LockActionsBar::copyTargetKey() {
    const int row = targetQueueRow();
    if (row < 0)
        return;
    const QString key = workspace_->lockWatch()->queue()->entryAt(row).keyText;
    QGuiApplication::clipboard()->setText(key);
    // A shortcut leaves no other trace that it did anything.
    emit message(tr("Copied %1").arg(key), 4000);
}

} // namespace lockscope
