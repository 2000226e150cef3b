#pragma once

#include "etcdclient/client_options.h"

#include <QObject>
#include <QPointer>
#include <optional>

class QWidget;

namespace lockscope {

class PasswordDialog;
class PasswordKeyring;

// Where the password of a connection that names a user comes from: the desktop's keyring when it
// holds one for that user and cluster, else the password dialog. A password the cluster refused
// is forgotten (when the keyring gave it) and asked again; one the user asked to remember is
// kept in the keyring once the cluster has accepted it.
class PasswordSource : public QObject {
    Q_OBJECT
public:
    explicit PasswordSource(QWidget* dialogParent);

    // Finds options.username's password; ready() or cancelled() follows. A newer find() or
    // refused() supersedes an older one still under way.
    void find(const etcd::ClientOptions& options);
    // The cluster refused options.password: forgets it if the keyring gave it, then asks again
    // with `problem` above the field.
    void refused(const etcd::ClientOptions& options, const QString& problem);
    // The cluster accepted options.password: remembers it if the user ticked the box.
    void accepted(const etcd::ClientOptions& options);

    PasswordKeyring& keyring() const { return *keyring_; }

signals:
    void ready(const etcd::ClientOptions& withPassword);
    void cancelled();
    void keyringFailed(const QString& message); // what did not happen, and why

private:
    void ask(const etcd::ClientOptions& options, const QString& problem,
             const QString& keyringProblem);

    struct Remembered {
        QString account;
        std::string password;
    };

    PasswordKeyring* keyring_;
    QWidget* dialogParent_;
    quint64 request_ = 0;
    QString fromKeyring_; // the account whose password the keyring gave last
    std::optional<Remembered> toRemember_;
    QPointer<PasswordDialog> dialog_;
};

} // namespace lockscope
