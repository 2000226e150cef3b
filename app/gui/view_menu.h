#pragma once

#include <QMenu>

class QTabWidget;

namespace lockscope {

class LocksPage;
class PrefixBar;

// The View menu: a checkable entry per page (Ctrl+1, Ctrl+2, ...), the lock prefix (Ctrl+L) and
// the lock filter (Ctrl+F), Read-only, and the Language submenu.
class ViewMenu : public QMenu {
    Q_OBJECT
public:
    ViewMenu(QTabWidget* pages, PrefixBar* prefixBar, LocksPage* locksPage,
             QWidget* parent = nullptr);

    // Checkable; toggled by the user or set by the window.
    QAction* readOnlyAction() const { return readOnly_; }

private:
    QAction* readOnly_;
};

} // namespace lockscope
