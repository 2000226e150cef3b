#include "widgets/steady_tab_widget.h"

#include <QEvent>
#include <QTabBar>

namespace lockscope {

bool SteadyTabWidget::event(QEvent* event) {
    if (event->type() == QEvent::LayoutRequest && isVisible()) {
        const QSize tabBar = this->tabBar()->sizeHint();
        if (tabBar == placedTabBar_) {
            updateGeometry(); // what QTabWidget does after placing, for the layouts above
            return true;
        }
        placedTabBar_ = tabBar;
    }
    return QTabWidget::event(event);
}

} // namespace lockscope
