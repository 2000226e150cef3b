#pragma once

#include <QDialog>
#include <functional>

class QLabel;
class QLineEdit;

namespace lockscope {

// Asks what to campaign for: the election's name, our proposal and the session TTL.
class CampaignDialog : public QDialog {
    Q_OBJECT
public:
    // What Campaign checks before the dialog accepts; an empty text means "fine".
    struct Checks {
        std::function<QString(const QString& name)> nameProblem;
        std::function<QString(qint64 ttlSeconds)> ttlProblem;
    };

    explicit CampaignDialog(const QString& electionName, QWidget* parent = nullptr);

    void setChecks(Checks checks) { checks_ = std::move(checks); }
    QString electionName() const;
    QString proposal() const;
    qint64 ttlSeconds() const; // 0 when the field holds no number
    void setProposal(const QString& proposal);

    void accept() override;

private:
    QLineEdit* name_;
    QLineEdit* proposal_;
    QLineEdit* ttl_;
    QLabel* problem_;
    Checks checks_;
};

} // namespace lockscope
