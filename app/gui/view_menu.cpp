#include "app/gui/view_menu.h"

#include "app/gui/cluster_view.h"
#include "app/gui/language_menu.h"
#include "app/gui/locks_page.h"
#include "app/gui/prefix_bar.h"

#include <QActionGroup>
#include <QTabWidget>

namespace lockscope {

ViewMenu::ViewMenu(ClusterView* pagesOf, QWidget* parent)
    : QMenu(tr("&View"), parent)
    , pageGroup_(new QActionGroup(this)) {
    setObjectName("viewMenu");
    fleet_ = addAction(tr("Fleet &overview"));
    fleet_->setObjectName("fleetViewAction");
    fleet_->setShortcut(QKeySequence("Ctrl+0"));
    const QTabWidget* pages = pagesOf->pages();
    for (int page = 0; page < pages->count(); ++page) {
        QAction* show = addAction(pages->tabText(page));
        show->setObjectName(pages->widget(page)->objectName() + "ViewAction");
        show->setCheckable(true);
        show->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(page + 1)));
        pageGroup_->addAction(show);
        connect(show, &QAction::triggered, this, [this, page] {
            if (!view_)
                return;
            emit viewWanted(view_);
            view_->pages()->setCurrentIndex(page);
        });
    }
    addSeparator();
    QAction* prefixAction = addAction(tr("Lock &prefix…"), this, [this] {
        if (!view_)
            return;
        emit viewWanted(view_);
        view_->prefixBar()->focusPrefix();
    });
    prefixAction->setObjectName("focusPrefixAction");
    prefixAction->setShortcut(QKeySequence("Ctrl+L"));
    QAction* filterAction = addAction(tr("&Filter locks…"), this, [this] {
        if (!view_)
            return;
        emit viewWanted(view_);
        view_->pages()->setCurrentWidget(view_->locksPage());
        view_->locksPage()->focusLockFilter();
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
    showView(pagesOf);
}

void ViewMenu::showView(ClusterView* view) {
    if (view_)
        view_->pages()->disconnect(this);
    view_ = view;
    const auto checkPage = [this](int page) { pageGroup_->actions().at(page)->setChecked(true); };
    checkPage(view->pages()->currentIndex());
    connect(view->pages(), &QTabWidget::currentChanged, this, checkPage);
}

} // namespace lockscope
