#include "app/gui/view_menu.h"

#include "app/gui/language_menu.h"
#include "app/gui/locks_page.h"
#include "app/gui/prefix_bar.h"

#include <QActionGroup>
#include <QTabWidget>

namespace lockscope {

ViewMenu::ViewMenu(QTabWidget* pages, PrefixBar* prefixBar, LocksPage* locksPage, QWidget* parent)
    : QMenu(tr("&View"), parent) {
    setObjectName("viewMenu");
    auto* pageGroup = new QActionGroup(this);
    for (int page = 0; page < pages->count(); ++page) {
        QAction* show = addAction(pages->tabText(page));
        show->setObjectName(pages->widget(page)->objectName() + "ViewAction");
        show->setCheckable(true);
        show->setChecked(page == pages->currentIndex());
        show->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(page + 1)));
        pageGroup->addAction(show);
        connect(show, &QAction::triggered, pages, [pages, page] { pages->setCurrentIndex(page); });
    }
    connect(pages, &QTabWidget::currentChanged, pageGroup,
            [pageGroup](int page) { pageGroup->actions().at(page)->setChecked(true); });
    addSeparator();
    QAction* prefixAction = addAction(tr("Lock &prefix…"), prefixBar, &PrefixBar::focusPrefix);
    prefixAction->setObjectName("focusPrefixAction");
    prefixAction->setShortcut(QKeySequence("Ctrl+L"));
    QAction* filterAction = addAction(tr("&Filter locks…"), locksPage, [pages, locksPage] {
        pages->setCurrentWidget(locksPage);
        locksPage->focusLockFilter();
    });
    filterAction->setObjectName("filterLocksAction");
    filterAction->setShortcut(QKeySequence::Find);
    addSeparator();
    readOnly_ = addAction(tr("&Read-only"));
    readOnly_->setObjectName("readOnlyAction");
    readOnly_->setCheckable(true);
    readOnly_->setToolTip(tr("Hide every action that writes to etcd"));
    addSeparator();
    addMenu(new LanguageMenu(this));
}

} // namespace lockscope
