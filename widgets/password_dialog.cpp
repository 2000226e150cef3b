#include "widgets/password_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace lockscope {

PasswordDialog::PasswordDialog(const QString& user, const QString& place, const QString& problem,
                               QWidget* parent)
    : QDialog(parent)
    , password_(new QLineEdit(this))
    , remember_(new QCheckBox(tr("Remember in the keyring"), this)) {
    setWindowTitle(tr("Password for %1").arg(user));
    auto* layout = new QVBoxLayout(this);
    if (!problem.isEmpty()) {
        auto* problemLabel = new QLabel(problem, this);
        problemLabel->setObjectName("passwordProblem");
        problemLabel->setWordWrap(true);
        problemLabel->setStyleSheet("color: #b00020");
        layout->addWidget(problemLabel);
    }
    auto* prompt = new QLabel(
        tr("Password of user <b>%1</b> on %2:").arg(user.toHtmlEscaped(), place.toHtmlEscaped()),
        this);
    prompt->setWordWrap(true);
    layout->addWidget(prompt);
    password_->setEchoMode(QLineEdit::Password);
    layout->addWidget(password_);
    remember_->setToolTip(tr("Keep the password in the desktop's keyring, so the next "
                             "connection does not ask; a password the cluster refuses is "
                             "forgotten"));
    layout->addWidget(remember_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole)->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    setMinimumWidth(380);
    password_->setFocus();
}

QString PasswordDialog::password() const {
    return password_->text();
}

bool PasswordDialog::remember() const {
    return remember_->isEnabled() && remember_->isChecked();
}

void PasswordDialog::disableRemember(const QString& why) {
    remember_->setChecked(false);
    remember_->setEnabled(false);
    remember_->setToolTip(why);
}

} // namespace lockscope
