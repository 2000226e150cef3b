#include "app/gui/about_dialog.h"

#include "app/gui/program_versions.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace lockscope {

AboutDialog::AboutDialog(QWidget* parent)
    : QDialog(parent)
    , server_(new QLabel) {
    setWindowTitle(tr("About LockScope"));
    const ProgramVersions versions = ProgramVersions::current();
    auto* icon = new QLabel;
    icon->setPixmap(QApplication::windowIcon().pixmap(64, 64));
    auto* title = new QLabel(tr("<h2>LockScope %1</h2>").arg(versions.lockscope));
    auto* summary = new QLabel(tr("Shows what is inside the locks of an etcd v3 cluster, live, "
                                  "and lets you take and release them by hand."));
    summary->setWordWrap(true);
    server_->setObjectName("aboutServerVersion");
    server_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    setServer({}, {});

    auto* figures = new QFormLayout;
    figures->addRow(tr("Qt:"),
                    new QLabel(tr("%1 (built with %2)").arg(versions.qt, QT_VERSION_STR)));
    figures->addRow(tr("gRPC:"), new QLabel(versions.grpc));
    figures->addRow(tr("etcd server:"), server_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* heading = new QHBoxLayout;
    heading->addWidget(icon, 0, Qt::AlignTop);
    auto* words = new QVBoxLayout;
    words->addWidget(title);
    words->addWidget(summary);
    words->addLayout(figures); // aligned with the words, beside the icon
    heading->addLayout(words, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(heading);
    layout->addStretch(1);
    layout->addWidget(buttons);
    resize(460, 260);
}

void AboutDialog::setServer(const QString& endpoint, const QString& version) {
    if (endpoint.isEmpty())
        server_->setText(tr("not connected"));
    else if (version.isEmpty())
        server_->setText(tr("waiting for %1 to answer…").arg(endpoint));
    else
        server_->setText(tr("etcd %1 (%2)").arg(version, endpoint));
}

QString AboutDialog::serverText() const {
    return server_->text();
}

} // namespace lockscope
