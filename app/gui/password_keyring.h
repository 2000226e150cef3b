#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <optional>

namespace etcd {
struct ClientOptions;
}

namespace lockscope {

// The passwords LockScope was asked to remember, in the desktop's keyring (the Secret Service,
// KWallet, ...) through QtKeychain, never in a file of ours and never in plain text. Every call
// answers later, on the application's thread: the GUI thread never waits on the keyring.
// An answer that arrives after this object is gone is dropped.
class PasswordKeyring : public QObject {
    Q_OBJECT
public:
    // `problem` is empty when the keyring answered; a missing entry is not a problem.
    using ReadDone = std::function<void(std::optional<QString> password, QString problem)>;
    using Done = std::function<void(QString problem)>;

    explicit PasswordKeyring(QObject* parent = nullptr);

    void read(const QString& account, ReadDone done);
    void write(const QString& account, const QString& password, Done done);
    void remove(const QString& account, Done done);

    // The keyring entry of a user on a cluster: "user@endpoints", so a profile and the same
    // command line share it.
    static QString accountOf(const etcd::ClientOptions& options);
};

} // namespace lockscope
