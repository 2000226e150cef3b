#pragma once

#include <QDialog>

class QMenuBar;
class QTableWidget;

namespace lockscope {

// Every keyboard shortcut of a window, read from its menus when shown, so the list is never
// out of date: one row per action with a shortcut, named "Menu → Action".
class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(QMenuBar* menus, QWidget* parent = nullptr);

    // The rows shown: "Menu → Action" and its shortcut as the user types it.
    QList<std::pair<QString, QString>> shortcuts() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    QMenuBar* menus_;
    QTableWidget* table_;
};

} // namespace lockscope
