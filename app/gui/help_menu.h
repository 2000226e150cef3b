#pragma once

#include <QMenu>
#include <QPointer>

class QMenuBar;

namespace lockscope {

class AboutDialog;
class ShortcutsDialog;
class Workspace;

// The Help menu: the keyboard shortcuts (read from `menus`), how etcd locks work, and About.
// Its dialogs are not modal and are made once, on first use.
class HelpMenu : public QMenu {
    Q_OBJECT
public:
    HelpMenu(QMenuBar* menus, QWidget* window);

    // The connection whose etcd version About shows (null: none).
    void setWorkspace(Workspace* workspace);

    void showShortcuts();
    void showLockPrimer();
    void showAbout();

private:
    QMenuBar* menus_;
    QWidget* window_;
    QPointer<Workspace> workspace_;
    ShortcutsDialog* shortcuts_ = nullptr;
    QDialog* primer_ = nullptr;
    AboutDialog* about_ = nullptr;
    QString serverEndpoint_; // what About shows, kept for a dialog made later
    QString serverVersion_;
};

} // namespace lockscope
