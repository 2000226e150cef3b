#pragma once

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace lockscope {

// Asks for a user's password when connecting, and whether to remember it in the desktop's
// keyring. `problem`, when set, says why it is asked again (the cluster refused the last one).
class PasswordDialog : public QDialog {
    Q_OBJECT
public:
    PasswordDialog(const QString& user, const QString& place, const QString& problem,
                   QWidget* parent = nullptr);

    QString password() const;
    bool remember() const;
    // No keyring to remember in: the box is off and disabled, with `why` as its tooltip.
    void disableRemember(const QString& why);

private:
    QLineEdit* password_;
    QCheckBox* remember_;
};

} // namespace lockscope
