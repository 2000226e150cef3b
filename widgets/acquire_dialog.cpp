#include "widgets/acquire_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace lockscope {

AcquireDialog::AcquireDialog(const QString& lockName, QWidget* parent)
    : QDialog(parent)
    , name_(new QLineEdit(lockName, this))
    , ttl_(new QSpinBox(this))
    , tryOnly_(new QCheckBox(tr("Only if free now (do not queue)"), this)) {
    setWindowTitle(tr("Acquire a lock"));
    name_->setPlaceholderText("/locks/deploy");
    ttl_->setRange(2, 3600); // etcd raises anything below its minimum to about 2 s anyway
    ttl_->setValue(10);      // etcdctl lock's default
    ttl_->setSuffix(tr(" s"));
    ttl_->setToolTip(tr("The session lease's time to live. LockScope keeps it alive every TTL/3 "
                        "until you release the lock."));
    auto* form = new QFormLayout;
    form->addRow(tr("Lock name"), name_);
    form->addRow(tr("Session TTL"), ttl_);
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
    layout->addWidget(buttons);
}

QString AcquireDialog::lockName() const {
    return name_->text().trimmed();
}
int AcquireDialog::ttlSeconds() const {
    return ttl_->value();
}
bool AcquireDialog::tryOnly() const {
    return tryOnly_->isChecked();
}
void AcquireDialog::setTtlSeconds(int seconds) {
    ttl_->setValue(seconds);
}
void AcquireDialog::setTryOnly(bool tryOnly) {
    tryOnly_->setChecked(tryOnly);
}

} // namespace lockscope
