#include "widgets/recording_settings_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lockscope {

RecordingSettingsDialog::RecordingSettingsDialog(const Values& values, int maxDays,
                                                 int maxMegabytes, const QString& folder,
                                                 QWidget* parent)
    : QDialog(parent)
    , on_(new QCheckBox(tr("&Record the locks watched, for replay later")))
    , keepDays_(new QSpinBox)
    , maxMegabytes_(new QSpinBox) {
    setWindowTitle(tr("Recording settings"));
    on_->setObjectName("recordingOn");
    keepDays_->setObjectName("recordingKeepDays");
    maxMegabytes_->setObjectName("recordingMaxMegabytes");
    on_->setChecked(values.on);
    keepDays_->setRange(1, maxDays);
    keepDays_->setValue(values.keepDays);
    keepDays_->setSuffix(tr(" days"));
    maxMegabytes_->setRange(1, maxMegabytes);
    maxMegabytes_->setValue(values.maxMegabytes);
    maxMegabytes_->setSuffix(tr(" MB"));

    auto* where = new QLabel(tr("One file per cluster, in %1. The oldest history goes first "
                                "once a file is older or larger than this.")
                                 .arg(folder));
    where->setWordWrap(true);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("Keep at most:"), keepDays_);
    form->addRow(tr("and at most:"), maxMegabytes_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(on_);
    layout->addLayout(form);
    layout->addWidget(where);
    layout->addWidget(buttons);
}

RecordingSettingsDialog::Values RecordingSettingsDialog::values() const {
    return {on_->isChecked(), keepDays_->value(), maxMegabytes_->value()};
}

} // namespace lockscope
