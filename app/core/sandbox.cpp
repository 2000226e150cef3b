#include "app/core/sandbox.h"

#include "app/core/guarded_post.h"
#include "process/local_cluster.h"

#include <QStandardPaths>
#include <QStringList>
#include <QThreadPool>

namespace lockscope {

Sandbox::Sandbox(QString etcdProgram, int members, QObject* parent)
    : QObject(parent)
    , etcdProgram_(std::move(etcdProgram))
    , members_(members) {}

Sandbox::~Sandbox() = default;

QString Sandbox::dataDirectory() const {
    return cluster_ ? QString::fromStdString(cluster_->dataRoot()) : QString();
}

void Sandbox::start() {
    const QString program = QStandardPaths::findExecutable(etcdProgram_);
    if (program.isEmpty())
        return fail(tr("no etcd program \"%1\" was found. Install etcd (Debian: apt install "
                       "etcd-server), or connect to a cluster with --endpoints.")
                        .arg(etcdProgram_));
    cluster_ = std::make_shared<etcd::LocalCluster>(members_, program.toStdString());
    if (const etcd::Error error = cluster_->spawn(); !error.ok())
        return fail(QString::fromStdString(error.message));
    QThreadPool::globalInstance()->start([cluster = cluster_, guard = QPointer(this)] {
        const etcd::Error error = cluster->waitReady();
        postGuarded(guard, [error](Sandbox* self) {
            self->ready_ = error.ok();
            if (error.ok())
                emit self->ready(self->endpoints());
            else
                self->fail(QString::fromStdString(error.message));
        });
    });
}

QStringList Sandbox::endpoints() const {
    QStringList out;
    if (cluster_)
        for (const auto& endpoint : cluster_->endpoints())
            out << QString::fromStdString(endpoint);
    return out;
}

bool Sandbox::memberRunning(int member) const {
    return ready_ && member >= 0 && member < members_ && !stopping_.contains(member) &&
           cluster_->running(member);
}

void Sandbox::stopMember(int member) {
    if (!memberRunning(member))
        return;
    stopping_.insert(member);
    QThreadPool::globalInstance()->start([cluster = cluster_, member, guard = QPointer(this)] {
        cluster->stopMember(member);
        postGuarded(guard, [member](Sandbox* self) {
            self->stopping_.remove(member);
            emit self->membersChanged();
        });
    });
}

void Sandbox::restartMember(int member) {
    if (!ready_ || member < 0 || member >= members_ || stopping_.contains(member) ||
        memberRunning(member))
        return;
    if (const etcd::Error error = cluster_->restartMember(member); !error.ok())
        emit failed(tr("Member %1 did not restart: %2")
                        .arg(member)
                        .arg(QString::fromStdString(error.message)));
    emit membersChanged();
}

void Sandbox::fail(const QString& reason) {
    emit failed(tr("The sandbox etcd did not start: %1").arg(reason));
}

} // namespace lockscope
