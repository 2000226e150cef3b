#include "widgets/campaign_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>

namespace lockscope {

CampaignDialog::CampaignDialog(const QString& electionName, QWidget* parent)
    : QDialog(parent)
    , name_(new QLineEdit(electionName, this))
    , proposal_(new QLineEdit(this))
    , ttl_(new QLineEdit(this))
    , problem_(new QLabel(this)) {
    setWindowTitle(tr("Campaign in an election"));
    name_->setObjectName("electionName");
    proposal_->setObjectName("proposal");
    ttl_->setObjectName("ttlSeconds");
    name_->setPlaceholderText("/elections/db");
    name_->setToolTip(tr("Any bytes: \\xNN is a byte, \\\\ a backslash"));
    proposal_->setToolTip(tr("Our value while we lead, as etcdctl elect's PROPOSAL; Proclaim "
                             "changes it"));
    ttl_->setValidator(new QRegularExpressionValidator(QRegularExpression("[0-9]{1,19}"), ttl_));
    ttl_->setText("60"); // etcdctl elect's session TTL
    ttl_->setToolTip(tr("The session lease's time to live in seconds. LockScope keeps it alive "
                        "until you resign."));
    problem_->setObjectName("campaignProblem");
    problem_->setStyleSheet("color: #c62828");
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->hide();
    auto* form = new QFormLayout;
    form->addRow(tr("Election name"), name_);
    form->addRow(tr("Proposal"), proposal_);
    form->addRow(tr("Session TTL (s)"), ttl_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* campaign = buttons->addButton(tr("Campaign"), QDialogButtonBox::AcceptRole);
    campaign->setDefault(true);
    campaign->setEnabled(!electionName.isEmpty());
    connect(name_, &QLineEdit::textChanged, campaign,
            [campaign](const QString& text) { campaign->setEnabled(!text.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
}

QString CampaignDialog::electionName() const {
    return name_->text().trimmed();
}
QString CampaignDialog::proposal() const {
    return proposal_->text();
}
qint64 CampaignDialog::ttlSeconds() const {
    return ttl_->text().toLongLong();
}
void CampaignDialog::setProposal(const QString& proposal) {
    proposal_->setText(proposal);
}

void CampaignDialog::accept() {
    QString problem = checks_.nameProblem ? checks_.nameProblem(electionName()) : QString();
    if (problem.isEmpty() && checks_.ttlProblem)
        problem = checks_.ttlProblem(ttlSeconds());
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    if (problem.isEmpty())
        QDialog::accept();
}

} // namespace lockscope
