#pragma once

#include "widgets/named_form_dialog.h"

#include <functional>

class QCheckBox;
class QComboBox;

namespace lockscope {

// Asks what to acquire: the lock name, the session TTL, which code takes the lock (our Mutex,
// etcd's Lock service, or a single key), and whether to wait in the queue or only take the lock if
// it is free right now (our Mutex only: the Lock service has no try-lock).
class AcquireDialog : public NamedFormDialog {
    Q_OBJECT
public:
    // What Acquire checks before the dialog accepts; the caller knows the rules (how a name is
    // written, etcd's limits), the dialog only asks. An empty text means "fine".
    struct Checks {
        std::function<QString(const QString& name)> nameProblem;
        std::function<QString(qint64 ttlSeconds)> ttlProblem; // refuses: shown in the dialog
        std::function<QString(qint64 ttlSeconds)> ttlWarning; // asks "acquire anyway?" first
    };

    explicit AcquireDialog(const QString& lockName, QWidget* parent = nullptr);

    void setChecks(Checks checks) { checks_ = std::move(checks); }

    QString lockName() const { return nameText(); }
    qint64 ttlSeconds() const { return ttlValue(); }
    bool tryOnly() const;
    bool serverLock() const; // through etcd's Lock service
    bool singleKey() const;  // the name is the key, as python-etcd3 and node etcd3 lock

    void setTtlSeconds(qint64 seconds) { setTtlValue(seconds); }
    void setTryOnly(bool tryOnly);

    // Accepts only when the checks pass and, for a TTL with a warning, the user confirms.
    void accept() override;

private:
    QComboBox* backend_;
    QCheckBox* tryOnly_;
    Checks checks_;
};

} // namespace lockscope
