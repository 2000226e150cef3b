#include "widgets/campaign_dialog.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace lockscope {

CampaignDialog::CampaignDialog(const QString& electionName, QWidget* parent)
    : NamedFormDialog(electionName, tr("Campaign"), 60, parent) // etcdctl elect's session TTL
    , proposal_(new QLineEdit(this)) {
    setWindowTitle(tr("Campaign in an election"));
    name_->setObjectName("electionName");
    name_->setPlaceholderText("/elections/db");
    proposal_->setObjectName("proposal");
    proposal_->setToolTip(tr("Our value while we lead, as etcdctl elect's PROPOSAL; Proclaim "
                             "changes it"));
    ttl_->setToolTip(tr("The session lease's time to live in seconds. LockScope keeps it alive "
                        "until you resign."));
    problem_->setObjectName("campaignProblem");
    form_->addRow(tr("Election name"), name_);
    form_->addRow(tr("Proposal"), proposal_);
    form_->addRow(tr("Session TTL (s)"), ttl_);
}

QString CampaignDialog::proposal() const {
    return proposal_->text();
}

void CampaignDialog::accept() {
    QString problem = checks_.nameProblem ? checks_.nameProblem(electionName()) : QString();
    if (problem.isEmpty() && checks_.ttlProblem)
        problem = checks_.ttlProblem(ttlSeconds());
    if (problem.isEmpty())
        problem = edgeSpaceProblem();
    if (showProblem(problem))
        QDialog::accept();
}

} // namespace lockscope
