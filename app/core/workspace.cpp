#include "app/core/workspace.h"

#include "app/core/cluster_session.h"
#include "app/core/cluster_status_probe.h"
#include "app/core/completion_latch.h"
#include "app/core/guarded_post.h"
#include "app/core/lock_actions.h"
#include "app/core/lock_watch.h"
#include "app/lab/contention_lab.h"
#include "etcdclient/client.h"

#include <QThread>

namespace lockscope {

Workspace::Workspace(const etcd::ClientOptions& options, QObject* parent)
    : QObject(parent)
    , options_(options)
    , session_(new ClusterSession(options, this))
    , lockWatch_(new LockWatch(this))
    // One client per connection: the probe asks through the session's (without one, it finds
    // the same setup error and gives it to every endpoint's row).
    , probe_(session_->client() ? new ClusterStatusProbe(*session_->client(), this)
                                : new ClusterStatusProbe(options, this)) {
    lockWatch_->setClient(session_->client());
    if (etcd::Client* client = session_->client()) {
        lockActions_ = new LockActions(*client, this);
        // What only we know of keys the watch sees go: that a force release removed them, and
        // that a lock of ours was lost.
        connect(lockActions_, &LockActions::forceReleasing, lockWatch_,
                &LockWatch::expectForceRelease);
        connect(
            lockActions_, &LockActions::ownLockChanged, lockWatch_,
            [this](const QString& name) { lockWatch_->showOwnLock(*lockActions_->ownLock(name)); });
    }
    refreshTimer_.setInterval(RefreshIntervalMs);
    connect(&refreshTimer_, &QTimer::timeout, this, [this] {
        session_->refresh();
        probe_->refresh();
    });
}

Workspace::~Workspace() {
    if (!finished_)
        endAndWait();
}

etcd::Client* Workspace::client() const {
    return session_ ? session_->client() : nullptr;
}

void Workspace::startRefreshing() {
    if (ending_)
        return;
    session_->refresh();
    probe_->refresh();
    refreshTimer_.start();
}

void Workspace::startLab(const lab::LabOptions& options, bool once) {
    etcd::Client* client = this->client();
    if (!client || ending_)
        return;
    if (lab_)
        lab_->stop();
    lab_ = lab::ContentionLab::create(*client, options);
    once ? lab_->step() : lab_->start();
}

void Workspace::stopLab() {
    if (lab_)
        lab_->stop();
}

void Workspace::end() {
    if (ending_)
        return;
    ending_ = true;
    refreshTimer_.stop();
    // 1. Release and revoke ours. The watch keeps running meanwhile, so the keys are seen going.
    auto latch = CompletionLatch::create();
    if (lab_)
        lab_->stop(latch->add());
    if (lockActions_)
        lockActions_->releaseAll(latch->add());
    const auto timeout =
        client() ? client()->options().commandTimeout : std::chrono::milliseconds(0);
    deadline_ = std::chrono::steady_clock::now() + timeout;
    QTimer::singleShot(timeout, Qt::PreciseTimer, this, &Workspace::stopStreamsAndClient);
    latch->seal([guard = QPointer(this)] {
        postGuarded(guard, [](Workspace* self) { self->stopStreamsAndClient(); });
    });
}

void Workspace::stopStreamsAndClient() {
    if (finished_)
        return;
    finished_ = true;
    // 2. The streams, and whatever else works through the client.
    lockWatch_->setClient(nullptr);
    delete lockActions_;
    lockActions_ = nullptr;
    lab_.reset(); // stopped in end(); a late worker callback holds the lab, not the client
    delete probe_;
    probe_ = nullptr;
    // 3. The client.
    delete session_;
    session_ = nullptr;
    emit finished();
}

void Workspace::endAndWait() {
    end();
    // The answers are calls queued on the application object (postGuarded).
    while (!finished_ && std::chrono::steady_clock::now() < deadline_) {
        QCoreApplication::sendPostedEvents(QCoreApplication::instance(), QEvent::MetaCall);
        QThread::msleep(5);
    }
    stopStreamsAndClient();
}

} // namespace lockscope
