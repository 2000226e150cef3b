#include "app/gui/help_menu.h"

#include "app/core/cluster_session.h"
#include "app/core/workspace.h"
#include "app/gui/about_dialog.h"
#include "app/gui/lock_primer.h"
#include "widgets/shortcuts_dialog.h"

#include <QDialogButtonBox>
#include <QMenuBar>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace lockscope {

namespace {

void showDialog(QDialog* dialog) {
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

} // namespace

HelpMenu::HelpMenu(QMenuBar* menus, QWidget* window)
    : QMenu(tr("&Help"), window)
    , menus_(menus)
    , window_(window) {
    setObjectName("helpMenu");
    QAction* shortcuts = addAction(tr("&Keyboard shortcuts"), this, &HelpMenu::showShortcuts);
    shortcuts->setObjectName("shortcutsAction");
    shortcuts->setShortcut(QKeySequence("Ctrl+/"));
    QAction* primer = addAction(tr("&How etcd locks work"), this, &HelpMenu::showLockPrimer);
    primer->setObjectName("lockPrimerAction");
    primer->setShortcut(QKeySequence::HelpContents);
    addSeparator();
    QAction* about = addAction(tr("&About LockScope"), this, &HelpMenu::showAbout);
    about->setObjectName("aboutAction");
    about->setMenuRole(QAction::AboutRole);
}

void HelpMenu::setWorkspace(Workspace* workspace) {
    if (workspace_ && workspace_->session())
        workspace_->session()->disconnect(this);
    workspace_ = workspace;
    serverVersion_.clear();
    serverEndpoint_ = workspace && !workspace->options().endpoints.empty()
                          ? QString::fromStdString(workspace->options().endpoints.front())
                          : QString();
    if (workspace && workspace->session())
        connect(workspace->session(), &ClusterSession::statusChanged, this,
                [this](const EndpointStatus& status) {
                    serverEndpoint_ = status.endpoint;
                    serverVersion_ = status.answered() ? status.version : QString();
                    if (about_)
                        about_->setServer(serverEndpoint_, serverVersion_);
                });
    if (about_)
        about_->setServer(serverEndpoint_, serverVersion_);
}

void HelpMenu::showShortcuts() {
    if (!shortcuts_) {
        shortcuts_ = new ShortcutsDialog(menus_, window_);
        shortcuts_->setObjectName("shortcutsDialog");
    }
    showDialog(shortcuts_);
}

void HelpMenu::showLockPrimer() {
    if (!primer_) {
        primer_ = new QDialog(window_);
        primer_->setObjectName("lockPrimerDialog");
        primer_->setWindowTitle(tr("How etcd locks work"));
        auto* text = new QTextBrowser;
        text->setObjectName("lockPrimerText");
        text->setHtml(lockPrimerHtml());
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
        connect(buttons, &QDialogButtonBox::rejected, primer_, &QDialog::reject);
        auto* layout = new QVBoxLayout(primer_);
        layout->addWidget(text);
        layout->addWidget(buttons);
        primer_->resize(620, 640);
    }
    showDialog(primer_);
}

void HelpMenu::showAbout() {
    if (!about_) {
        about_ = new AboutDialog(window_);
        about_->setObjectName("aboutDialog");
        about_->setServer(serverEndpoint_, serverVersion_);
    }
    showDialog(about_);
}

} // namespace lockscope
