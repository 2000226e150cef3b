#pragma once

#include <QDialog>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace lockscope {

// Asks what to acquire: the lock name, the session TTL, and whether to wait in the queue or
// only take the lock if it is free right now.
class AcquireDialog : public QDialog {
    Q_OBJECT
public:
    explicit AcquireDialog(const QString& lockName, QWidget* parent = nullptr);

    QString lockName() const;
    int ttlSeconds() const;
    bool tryOnly() const;

    void setTtlSeconds(int seconds);
    void setTryOnly(bool tryOnly);

private:
    QLineEdit* name_;
    QSpinBox* ttl_;
    QCheckBox* tryOnly_;
};

} // namespace lockscope
