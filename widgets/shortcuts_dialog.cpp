#include "widgets/shortcuts_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lockscope {

namespace {

QString plainText(const QAction* action) {
    return action->text().remove('&').remove(QChar(0x2026)); // no mnemonic, no ellipsis
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QMenuBar* menus, QWidget* parent)
    : QDialog(parent)
    , menus_(menus)
    , table_(new QTableWidget(0, 2)) {
    setWindowTitle(tr("Keyboard shortcuts"));
    table_->setObjectName("shortcutsTable");
    table_->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setFocusPolicy(Qt::NoFocus); // a list to read: no current cell drawn
    table_->setAlternatingRowColors(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_);
    layout->addWidget(buttons);
    resize(480, 460);
}

QList<std::pair<QString, QString>> ShortcutsDialog::shortcuts() const {
    QList<std::pair<QString, QString>> rows;
    for (const QAction* menuAction : menus_->actions()) {
        const QMenu* menu = menuAction->menu();
        if (!menu)
            continue;
        for (const QAction* action : menu->actions())
            if (!action->shortcut().isEmpty())
                rows.append({tr("%1 → %2").arg(plainText(menuAction), plainText(action)),
                             action->shortcut().toString(QKeySequence::NativeText)});
    }
    return rows;
}

void ShortcutsDialog::showEvent(QShowEvent* event) {
    const auto rows = shortcuts();
    table_->setRowCount(static_cast<int>(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        table_->setItem(row, 0, new QTableWidgetItem(rows[row].first));
        table_->setItem(row, 1, new QTableWidgetItem(rows[row].second));
    }
    QDialog::showEvent(event);
}

} // namespace lockscope
