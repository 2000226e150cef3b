#include "widgets/steady_tab_widget.h"

#include <QEvent>
#include <QStackedWidget>
#include <QStyleOptionTabWidgetFrame>
#include <QTabBar>

namespace lockscope {

bool SteadyTabWidget::event(QEvent* event) {
    if (event->type() == QEvent::LayoutRequest && isVisible() && placed()) {
        updateGeometry(); // what QTabWidget does after placing, for the layouts above
        return true;
    }
    return QTabWidget::event(event);
}

bool SteadyTabWidget::placed() const {
    const auto* pages =
        findChild<QStackedWidget*>("qt_tabwidget_stackedwidget", Qt::FindDirectChildrenOnly);
    if (!pages)
        return false;
    QStyleOptionTabWidgetFrame option;
    initStyleOption(&option);
    const auto at = [&](QStyle::SubElement element) {
        return style()->subElementRect(element, &option, this);
    };
    const auto cornerPlaced = [&](Qt::Corner corner, QStyle::SubElement element) {
        const QWidget* widget = cornerWidget(corner);
        return !widget || widget->geometry() == at(element);
    };
    return tabBar()->geometry() == at(QStyle::SE_TabWidgetTabBar) &&
           pages->geometry() == at(QStyle::SE_TabWidgetTabContents) &&
           cornerPlaced(Qt::TopLeftCorner, QStyle::SE_TabWidgetLeftCorner) &&
           cornerPlaced(Qt::TopRightCorner, QStyle::SE_TabWidgetRightCorner);
}

} // namespace lockscope
