#pragma once

#include "widgets/connection_profile.h"

#include <QDialog>
#include <QList>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QLabel;

namespace lockscope {

// Picks or edits a connection profile: endpoints, TLS files, user (its password is asked when
// connecting, never here and never stored with the profile), read-only. Saving and deleting edit
// the list the caller persists; a validator the caller supplies checks the fields before a
// profile is saved or Connect accepted, and says what is wrong.
class ConnectionDialog : public QDialog {
    Q_OBJECT
public:
    using Validator = std::function<QString(const ConnectionProfile&)>;

    ConnectionDialog(QList<ConnectionProfile> profiles, Validator validate,
                     QWidget* parent = nullptr);

    ConnectionProfile profile() const; // the fields as they are now
    QList<ConnectionProfile> profiles() const { return profiles_; }

    void setProfile(const ConnectionProfile& profile);

signals:
    void profilesChanged(const QList<ConnectionProfile>& profiles);

private:
    void saveProfile();
    void deleteProfile();
    void pick(int index);
    void tryAccept();
    bool isValid(const ConnectionProfile& profile); // says why not below the fields
    QLineEdit* fileField(const QString& placeholder);

    Validator validate_;
    QList<ConnectionProfile> profiles_;
    QComboBox* saved_;
    QLineEdit* name_;
    QLineEdit* endpoints_;
    QLineEdit* caFile_;
    QLineEdit* certFile_;
    QLineEdit* keyFile_;
    QLineEdit* user_;
    QCheckBox* readOnly_;
    QLabel* problem_;
};

} // namespace lockscope
