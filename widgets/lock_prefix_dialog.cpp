#include "widgets/lock_prefix_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace lockscope {

LockPrefixDialog::LockPrefixDialog(const QString& message, const QStringList& recent,
                                   const QString& initial, QWidget* parent)
    : QDialog(parent)
    , prefixBox_(new QComboBox) {
    setWindowTitle(tr("Lock prefix"));
    auto* text = new QLabel(message);
    text->setObjectName("lockPrefixMessage");
    text->setWordWrap(true);
    text->setTextFormat(Qt::PlainText);
    prefixBox_->setObjectName("lockPrefixBox");
    prefixBox_->setEditable(true);
    prefixBox_->setInsertPolicy(QComboBox::NoInsert);
    prefixBox_->setMinimumContentsLength(40);
    prefixBox_->addItems(recent);
    prefixBox_->setEditText(initial);
    auto* label = new QLabel(tr("Lock &prefix:"));
    label->setBuddy(prefixBox_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    watchButton_ = buttons->addButton(tr("&Watch this prefix"), QDialogButtonBox::AcceptRole);
    watchButton_->setObjectName("watchPrefixButton");
    watchButton_->setDefault(true);
    // Enter in the field is Watch, or nothing while Watch is disabled: Cancel (auto-default in a
    // dialog) would otherwise take the default then, and an Enter after typing would cancel.
    buttons->button(QDialogButtonBox::Cancel)->setAutoDefault(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Nothing to watch in an empty field; when warned, only a narrower prefix.
    connect(prefixBox_, &QComboBox::editTextChanged, this, [this](const QString& typed) {
        watchButton_->setEnabled(!typed.isEmpty() && typed != broad_);
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text);
    layout->addWidget(label);
    layout->addWidget(prefixBox_);
    layout->addWidget(buttons);
    buttons->setObjectName("lockPrefixButtons");
    watchButton_->setEnabled(!initial.isEmpty());
}

LockPrefixDialog* LockPrefixDialog::askFirst(const QString& cluster, const QStringList& recent,
                                             QWidget* parent) {
    const QString message =
        tr("Which key prefix holds the locks of %1? LockScope watches only the keys under it. "
           "Applications name their locks under a prefix of their own (etcdctl lock and the Go "
           "client use the lock's name, for example /locks/deploy/); \"/\" is every key of "
           "the cluster, which on a Kubernetes etcd is millions of keys under /registry/.")
            .arg(cluster);
    // No prefix filled in: one from elsewhere taken unread could be the whole keyspace.
    return new LockPrefixDialog(message, recent, QString(), parent);
}

LockPrefixDialog* LockPrefixDialog::warnBroad(const QString& prefix, qint64 keys, qint64 otherKeys,
                                              const QStringList& recent, QWidget* parent) {
    const QLocale locale;
    const QString message =
        tr("%1 holds %2 keys, and about %3 of them are not lock keys (<name>/<lease id in "
           "hex>). Loading them all takes memory and time on this computer and on the cluster. "
           "Type a longer prefix that holds only the locks, or load them all anyway.")
            .arg(prefix, locale.toString(keys), locale.toString(otherKeys));
    auto* dialog = new LockPrefixDialog(message, recent, prefix, parent);
    dialog->broad_ = prefix;
    dialog->watchButton_->setText(tr("&Watch the narrower prefix"));
    dialog->watchButton_->setEnabled(false);
    auto* buttons = dialog->findChild<QDialogButtonBox*>("lockPrefixButtons");
    QPushButton* anyway = buttons->addButton(tr("&Load all anyway"), QDialogButtonBox::ActionRole);
    anyway->setObjectName("loadAnywayButton");
    anyway->setAutoDefault(false);
    connect(anyway, &QPushButton::clicked, dialog, [dialog] {
        dialog->loadAnyway_ = true;
        dialog->prefixBox_->setEditText(dialog->broad_);
        dialog->accept();
    });
    return dialog;
}

QString LockPrefixDialog::prefix() const {
    return prefixBox_->currentText();
}

QString LockPrefixDialog::message() const {
    return findChild<QLabel*>("lockPrefixMessage")->text();
}

} // namespace lockscope
