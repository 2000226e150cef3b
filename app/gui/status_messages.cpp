#include "app/gui/status_messages.h"

#include <QStatusBar>

namespace lockscope {

namespace {
constexpr int SideMargins = 24; // the bar's own padding and size grip
}

StatusMessages::StatusMessages(QStatusBar* bar)
    : QObject(bar)
    , bar_(bar) {
    connect(bar, &QStatusBar::messageChanged, this, [this](const QString& message) {
        if (message.isEmpty())
            bar_->setToolTip({});
    });
}

void StatusMessages::show(const QString& text, int timeoutMs) {
    const QString line = QString(text).replace('\n', ' ');
    const QString elided = bar_->fontMetrics().elidedText(line, Qt::ElideRight,
                                                          std::max(0, bar_->width() - SideMargins));
    bar_->showMessage(elided, timeoutMs);
    bar_->setToolTip(elided == text ? QString() : text);
}

} // namespace lockscope
