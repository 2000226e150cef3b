#include "widgets/acquire_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpressionValidator>

namespace lockscope {

AcquireDialog::AcquireDialog(const QString& lockName, QWidget* parent)
    : QDialog(parent)
    , name_(new QLineEdit(lockName, this))
    , ttl_(new QLineEdit(this))
    , backend_(new QComboBox(this))
    , tryOnly_(new QCheckBox(tr("Only if free now (do not queue)"), this))
    , problem_(new QLabel(this)) {
    setWindowTitle(tr("Acquire a lock"));
    name_->setObjectName("lockName");
    ttl_->setObjectName("ttlSeconds");
    name_->setPlaceholderText("/locks/deploy");
    name_->setToolTip(tr("Any bytes: \\xNN is a byte, \\\\ a backslash"));
    // Whole seconds; a QSpinBox stops at 2^31-1, below etcd's own limit, which we name instead.
    ttl_->setValidator(new QRegularExpressionValidator(QRegularExpression("[0-9]{1,19}"), ttl_));
    ttl_->setText("10"); // etcdctl lock's default
    ttl_->setToolTip(tr("The session lease's time to live in seconds. LockScope keeps it alive "
                        "every TTL/3 until you release the lock."));
    backend_->setObjectName("lockBackend");
    backend_->addItem(tr("LockScope's Mutex (as etcdctl lock)"));
    backend_->addItem(tr("etcd's Lock service"));
    backend_->setToolTip(tr("Both queue on the same keys, in one order. With etcd's Lock service "
                            "the server does the waiting; it cannot take a lock only if free."));
    connect(backend_, &QComboBox::currentIndexChanged, this, [this](int index) {
        tryOnly_->setEnabled(index == 0);
        if (index != 0)
            tryOnly_->setChecked(false);
    });
    tryOnly_->setObjectName("tryOnly");
    problem_->setObjectName("acquireProblem");
    problem_->setStyleSheet("color: #c62828");
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->hide();
    auto* form = new QFormLayout;
    form->addRow(tr("Lock name"), name_);
    form->addRow(tr("Session TTL (s)"), ttl_);
    form->addRow(tr("Taken by"), backend_);
    form->addRow(QString(), tryOnly_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* acquire = buttons->addButton(tr("Acquire"), QDialogButtonBox::AcceptRole);
    acquire->setDefault(true);
    acquire->setEnabled(!lockName.isEmpty());
    connect(name_, &QLineEdit::textChanged, acquire,
            [acquire](const QString& text) { acquire->setEnabled(!text.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
}

QString AcquireDialog::lockName() const {
    return name_->text().trimmed();
}
qint64 AcquireDialog::ttlSeconds() const {
    return ttl_->text().toLongLong(); // 0 when empty or beyond qint64
}
bool AcquireDialog::tryOnly() const {
    return tryOnly_->isChecked();
}
bool AcquireDialog::serverLock() const {
    return backend_->currentIndex() == 1;
}
void AcquireDialog::setServerLock(bool serverLock) {
    backend_->setCurrentIndex(serverLock ? 1 : 0);
}
void AcquireDialog::setTtlSeconds(qint64 seconds) {
    ttl_->setText(QString::number(seconds));
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
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    if (!problem.isEmpty())
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
