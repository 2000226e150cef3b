#pragma once

#include "widgets/named_form_dialog.h"

#include <functional>

namespace lockscope {

// Asks what to campaign for: the election's name, our proposal and the session TTL.
class CampaignDialog : public NamedFormDialog {
    Q_OBJECT
public:
    // What Campaign checks before the dialog accepts; an empty text means "fine".
    struct Checks {
        std::function<QString(const QString& name)> nameProblem;
        std::function<QString(qint64 ttlSeconds)> ttlProblem;
    };

    explicit CampaignDialog(const QString& electionName, QWidget* parent = nullptr);

    void setChecks(Checks checks) { checks_ = std::move(checks); }
    QString electionName() const { return nameText(); }
    QString proposal() const;
    qint64 ttlSeconds() const { return ttlValue(); }

    void accept() override;

private:
    QLineEdit* proposal_;
    Checks checks_;
};

} // namespace lockscope
