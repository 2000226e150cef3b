#include "widgets/named_form_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>

namespace lockscope {

NamedFormDialog::NamedFormDialog(const QString& name, const QString& acceptText, qint64 ttlSeconds,
                                 QWidget* parent)
    : QDialog(parent)
    , name_(new QLineEdit(name, this))
    , ttl_(new QLineEdit(this))
    , form_(new QFormLayout)
    , problem_(new QLabel(this))
    , acceptText_(acceptText) {
    name_->setToolTip(tr("Any bytes: \\xNN is a byte, \\\\ a backslash"));
    ttl_->setObjectName("ttlSeconds");
    // Whole seconds; a QSpinBox stops at 2^31-1, below etcd's own limit, which we name instead.
    ttl_->setValidator(new QRegularExpressionValidator(QRegularExpression("[0-9]{1,19}"), ttl_));
    setTtlValue(ttlSeconds);
    problem_->setStyleSheet("color: #c62828");
    problem_->setWordWrap(true);
    problem_->setTextFormat(Qt::PlainText);
    problem_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* accept = buttons->addButton(acceptText, QDialogButtonBox::AcceptRole);
    accept->setDefault(true);
    accept->setEnabled(!name.isEmpty());
    connect(name_, &QLineEdit::textChanged, accept,
            [accept](const QString& text) { accept->setEnabled(!text.trimmed().isEmpty()); });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form_);
    layout->addWidget(problem_);
    layout->addWidget(buttons);
}

QString NamedFormDialog::nameText() const {
    return name_->text();
}

QString NamedFormDialog::edgeSpaceProblem() {
    const QString text = name_->text();
    if (text == text.trimmed() || text == edgeSpacesConfirmed_)
        return {};
    edgeSpacesConfirmed_ = text;
    return tr("The name starts or ends with white space, which is part of it: \"%1\" is another "
              "lock than \"%2\", for etcdctl too. %3 again to take it as typed.")
        .arg(text, text.trimmed(), acceptText_);
}

qint64 NamedFormDialog::ttlValue() const {
    return ttl_->text().toLongLong(); // 0 when empty or beyond qint64
}

void NamedFormDialog::setTtlValue(qint64 seconds) {
    ttl_->setText(QString::number(seconds));
}

bool NamedFormDialog::showProblem(const QString& problem) {
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    return problem.isEmpty();
}

} // namespace lockscope
