#include "widgets/acquire_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>

namespace lockscope {

AcquireDialog::AcquireDialog(const QString& lockName, QWidget* parent)
    : NamedFormDialog(lockName, tr("Acquire"), 10, parent) // etcdctl lock's TTL
    , backend_(new QComboBox(this))
    , tryOnly_(new QCheckBox(tr("Only if free now (do not queue)"), this)) {
    setWindowTitle(tr("Acquire a lock"));
    name_->setObjectName("lockName");
    name_->setPlaceholderText("/locks/deploy");
    ttl_->setToolTip(tr("The session lease's time to live in seconds. LockScope keeps it alive "
                        "every TTL/3 until you release the lock."));
    backend_->setObjectName("lockBackend");
    backend_->addItem(tr("LockScope's Mutex (as etcdctl lock)"));
    backend_->addItem(tr("etcd's Lock service"));
    backend_->addItem(tr("A single key (as python-etcd3, node etcd3, tooz)"));
    backend_->setToolTip(tr("The first two queue on the same keys, in one order. With etcd's Lock "
                            "service the server does the waiting; it cannot take a lock only if "
                            "free. A single key is the lock itself: it excludes python-etcd3's "
                            "/locks/<name> and node etcd3's lock(<name>), and its waiters hold "
                            "no key."));
    connect(backend_, &QComboBox::currentIndexChanged, this, [this](int) {
        tryOnly_->setEnabled(!serverLock());
        if (serverLock())
            tryOnly_->setChecked(false);
    });
    tryOnly_->setObjectName("tryOnly");
    problem_->setObjectName("acquireProblem");
    form_->addRow(tr("Lock name"), name_);
    form_->addRow(tr("Session TTL (s)"), ttl_);
    form_->addRow(tr("Taken by"), backend_);
    form_->addRow(QString(), tryOnly_);
}

bool AcquireDialog::tryOnly() const {
    return tryOnly_->isChecked();
}
bool AcquireDialog::serverLock() const {
    return backend_->currentIndex() == 1;
}
bool AcquireDialog::singleKey() const {
    return backend_->currentIndex() == 2;
}
void AcquireDialog::setTryOnly(bool tryOnly) {
    tryOnly_->setChecked(tryOnly);
}

void AcquireDialog::accept() {
    const auto check = [](const auto& rule, const auto& value) {
        return rule ? rule(value) : QString();
    };
    QString problem = check(checks_.nameProblem, lockName());
    if (problem.isEmpty())
        problem = check(checks_.ttlProblem, ttlSeconds());
    if (problem.isEmpty())
        problem = edgeSpaceProblem();
    if (!showProblem(problem))
        return;
    if (const QString warning = check(checks_.ttlWarning, ttlSeconds()); !warning.isEmpty()) {
        QMessageBox confirm(QMessageBox::Question, tr("Long session TTL"),
                            tr("%1.\n\nAcquire with this TTL anyway?").arg(warning),
                            QMessageBox::Yes | QMessageBox::Cancel, this);
        confirm.setObjectName("longTtlConfirmation");
        confirm.setDefaultButton(QMessageBox::Cancel);
        if (confirm.exec() != QMessageBox::Yes)
            return;
    }
    QDialog::accept();
}

} // namespace lockscope
