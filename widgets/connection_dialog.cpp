#include "widgets/connection_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

namespace lockscope {

ConnectionDialog::ConnectionDialog(QList<ConnectionProfile> profiles, Validator validate,
                                   QWidget* parent)
    : QDialog(parent)
    , validate_(std::move(validate))
    , profiles_(std::move(profiles))
    , saved_(new QComboBox(this))
    , name_(new QLineEdit(this))
    , endpoints_(new QLineEdit(this))
    , caFile_(fileField(tr("CA certificate (PEM), for TLS")))
    , certFile_(fileField(tr("client certificate (PEM)")))
    , keyFile_(fileField(tr("client key (PEM)")))
    , user_(new QLineEdit(this))
    , readOnly_(new QCheckBox(tr("Read-only: hide every action "
                                 "that writes"),
                              this))
    , problem_(new QLabel(this)) {
    setWindowTitle(tr("Connect to etcd"));
    endpoints_->setPlaceholderText(tr("10.0.0.5:2379,10.0.0.6:2379 or https://etcd:2379"));
    // Wide enough for the example in any language, and the profile list for its longest name.
    endpoints_->setMinimumWidth(
        endpoints_->fontMetrics().horizontalAdvance(endpoints_->placeholderText()) +
        endpoints_->fontMetrics().averageCharWidth() * 4);
    saved_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    user_->setPlaceholderText(tr("none"));
    user_->setToolTip(tr("The password is asked when connecting; it can be kept in the "
                         "desktop's keyring, never in the profile"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet("color: #b00020");
    problem_->hide();

    auto* savedRow = new QHBoxLayout;
    savedRow->addWidget(saved_, 1);
    auto* save = new QPushButton(tr("Save"), this);
    auto* remove = new QPushButton(tr("Delete"), this);
    savedRow->addWidget(save);
    savedRow->addWidget(remove);

    auto* form = new QFormLayout;
    form->addRow(tr("Saved profiles"), savedRow);
    form->addRow(tr("Profile name"), name_);
    form->addRow(tr("Endpoints"), endpoints_);
    for (auto [label, field] : {std::pair{tr("CA file"), caFile_},
                                {tr("Certificate"), certFile_},
                                {tr("Key"), keyFile_}}) {
        auto* row = new QHBoxLayout;
        row->addWidget(field, 1);
        auto* browse = new QToolButton(this);
        browse->setText("…");
        connect(browse, &QToolButton::clicked, this, [this, field = field] {
            const QString path = QFileDialog::getOpenFileName(this, tr("Choose a PEM file"));
            if (!path.isEmpty())
                field->setText(path);
        });
        row->addWidget(browse);
        form->addRow(label, row);
    }
    form->addRow(tr("User"), user_);
    form->addRow(QString(), readOnly_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* connectButton = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
    connectButton->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectionDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(save, &QPushButton::clicked, this, &ConnectionDialog::saveProfile);
    connect(remove, &QPushButton::clicked, this, &ConnectionDialog::deleteProfile);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(problem_);
    layout->addWidget(buttons);

    saved_->addItem(tr("(new)"));
    for (const auto& p : profiles_)
        saved_->addItem(p.name);
    connect(saved_, &QComboBox::currentIndexChanged, this, &ConnectionDialog::pick);
    if (!profiles_.isEmpty())
        saved_->setCurrentIndex(1);
}

QLineEdit* ConnectionDialog::fileField(const QString& placeholder) {
    auto* field = new QLineEdit(this);
    field->setPlaceholderText(placeholder);
    return field;
}

ConnectionProfile ConnectionDialog::profile() const {
    return {name_->text().trimmed(),     endpoints_->text().trimmed(), caFile_->text().trimmed(),
            certFile_->text().trimmed(), keyFile_->text().trimmed(),   user_->text().trimmed(),
            readOnly_->isChecked()};
}

void ConnectionDialog::setProfile(const ConnectionProfile& p) {
    name_->setText(p.name);
    endpoints_->setText(p.endpoints);
    caFile_->setText(p.caFile);
    certFile_->setText(p.certFile);
    keyFile_->setText(p.keyFile);
    user_->setText(p.user);
    readOnly_->setChecked(p.readOnly);
}

void ConnectionDialog::pick(int index) {
    if (index >= 1 && index <= profiles_.size())
        setProfile(profiles_[index - 1]);
}

void ConnectionDialog::saveProfile() {
    ConnectionProfile p = profile();
    if (!isValid(p))
        return;
    if (p.name.isEmpty())
        p.name = p.endpoints.isEmpty() ? tr("unnamed") : p.endpoints;
    name_->setText(p.name);
    auto existing = std::find_if(profiles_.begin(), profiles_.end(),
                                 [&](const ConnectionProfile& q) { return q.name == p.name; });
    if (existing != profiles_.end()) {
        *existing = p;
    } else {
        profiles_.append(p);
        saved_->addItem(p.name);
    }
    saved_->setCurrentIndex(saved_->findText(p.name));
    emit profilesChanged(profiles_);
}

void ConnectionDialog::deleteProfile() {
    const int index = saved_->currentIndex();
    if (index < 1)
        return;
    profiles_.removeAt(index - 1);
    saved_->removeItem(index);
    emit profilesChanged(profiles_);
}

void ConnectionDialog::tryAccept() {
    if (isValid(profile()))
        accept();
}

bool ConnectionDialog::isValid(const ConnectionProfile& p) {
    const QString problem = validate_ ? validate_(p) : QString();
    problem_->setText(problem);
    problem_->setVisible(!problem.isEmpty());
    return problem.isEmpty();
}

} // namespace lockscope
