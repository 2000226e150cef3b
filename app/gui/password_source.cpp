#include "app/gui/password_source.h"

#include "app/gui/password_keyring.h"
#include "widgets/password_dialog.h"

#include <QStringList>
#include <QWidget>
#include <utility>

namespace lockscope {

PasswordSource::PasswordSource(QWidget* dialogParent)
    : QObject(dialogParent)
    , keyring_(new PasswordKeyring(this))
    , dialogParent_(dialogParent) {}

void PasswordSource::find(const etcd::ClientOptions& options) {
    const quint64 request = ++request_;
    const QString account = PasswordKeyring::accountOf(options);
    keyring_->read(account, [this, request, options, account](std::optional<QString> stored,
                                                              const QString& problem) {
        if (request != request_)
            return;
        if (!stored) {
            ask(options, {}, problem);
            return;
        }
        fromKeyring_ = account;
        toRemember_.reset();
        etcd::ClientOptions withPassword = options;
        withPassword.password = stored->toStdString();
        emit ready(withPassword);
    });
}

void PasswordSource::refused(const etcd::ClientOptions& options, const QString& problem) {
    const quint64 request = ++request_;
    toRemember_.reset();
    const QString account = PasswordKeyring::accountOf(options);
    if (fromKeyring_ != account) {
        ask(options, problem, {});
        return;
    }
    fromKeyring_.clear();
    // Asked once the stored password is gone, so a crash meanwhile cannot leave it behind.
    keyring_->remove(account, [this, request, options, problem](const QString& removeProblem) {
        if (request != request_)
            return;
        if (!removeProblem.isEmpty())
            emit keyringFailed(
                tr("The refused password is still in the keyring: %1").arg(removeProblem));
        ask(options, problem, {});
    });
}

void PasswordSource::accepted(const etcd::ClientOptions& options) {
    if (!toRemember_ || toRemember_->account != PasswordKeyring::accountOf(options) ||
        toRemember_->password != options.password)
        return;
    const Remembered remembered = *std::exchange(toRemember_, std::nullopt);
    keyring_->write(remembered.account, QString::fromStdString(remembered.password),
                    [this, account = remembered.account](const QString& problem) {
                        if (!problem.isEmpty()) {
                            emit keyringFailed(
                                tr("The password was not kept in the keyring: %1").arg(problem));
                            return;
                        }
                        fromKeyring_ = account; // stored now: forget it if it is refused later
                    });
}

void PasswordSource::ask(const etcd::ClientOptions& options, const QString& problem,
                         const QString& keyringProblem) {
    if (dialog_)
        dialog_->deleteLater();
    const quint64 request = request_;
    QStringList endpoints;
    for (const std::string& endpoint : options.endpoints)
        endpoints << QString::fromStdString(endpoint);
    auto* dialog = new PasswordDialog(QString::fromStdString(options.username),
                                      endpoints.join(", "), problem, dialogParent_);
    dialog->setObjectName("passwordDialog");
    if (!keyringProblem.isEmpty())
        dialog->disableRemember(tr("No keyring to remember it in: %1").arg(keyringProblem));
    connect(dialog, &QDialog::finished, this, [this, dialog, request, options](int result) {
        dialog->deleteLater();
        if (request != request_)
            return;
        if (result != QDialog::Accepted) {
            emit cancelled();
            return;
        }
        etcd::ClientOptions withPassword = options;
        withPassword.password = dialog->password().toStdString();
        fromKeyring_.clear();
        if (dialog->remember())
            toRemember_ = Remembered{PasswordKeyring::accountOf(options), withPassword.password};
        emit ready(withPassword);
    });
    dialog_ = dialog;
    dialog->open();
}

} // namespace lockscope
