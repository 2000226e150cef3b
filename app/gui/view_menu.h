#pragma once

#include <QMenu>
#include <QPointer>

namespace lockscope {

class ClusterView;

// The View menu: the fleet overview (Ctrl+0), a checkable entry per page of the cluster shown
// (Ctrl+1, Ctrl+2, ...), the lock prefix (Ctrl+L) and the lock filter (Ctrl+F), Read-only, and
// the Language submenu. Its entries act on the cluster shown (showView).
class ViewMenu : public QMenu {
    Q_OBJECT
public:
    // `pagesOf` gives the pages' names and entries: every cluster has the same pages.
    explicit ViewMenu(ClusterView* pagesOf, QWidget* parent = nullptr);

    // The cluster the page entries, the prefix and the filter act on.
    void showView(ClusterView* view);
    // Checkable; toggled by the user or set by the window.
    QAction* readOnlyAction() const { return readOnly_; }
    QAction* fleetAction() const { return fleet_; }

signals:
    // An entry acts on `view`, which the window shows first (it may be showing the fleet).
    void viewWanted(ClusterView* view);

private:
    QPointer<ClusterView> view_;
    QActionGroup* pageGroup_;
    QAction* fleet_;
    QAction* readOnly_;
};

} // namespace lockscope
