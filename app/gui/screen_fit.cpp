#include "app/gui/screen_fit.h"

#include <QEvent>
#include <QScreen>
#include <QTimer>
#include <QWidget>
#include <QWindow>
#include <algorithm>

namespace lockscope {

namespace {

void fitNow(QWidget& window) {
    const QScreen* screen = window.screen();
    if (!screen || window.isMaximized() || window.isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    const QRect frame = window.frameGeometry();
    const QRect inner = window.geometry();
    // The frame's share: title bar and borders, once the window system has drawn them.
    const int extraWidth = frame.width() - inner.width();
    const int extraHeight = frame.height() - inner.height();
    const QSize size = inner.size().boundedTo(
        QSize(available.width() - extraWidth, available.height() - extraHeight));
    if (size != inner.size())
        window.resize(size.expandedTo(window.minimumSize()));
    const QRect fitted = window.frameGeometry();
    const QPoint topLeft(
        std::clamp(fitted.left(), available.left(),
                   std::max(available.left(), available.right() + 1 - fitted.width())),
        std::clamp(fitted.top(), available.top(),
                   std::max(available.top(), available.bottom() + 1 - fitted.height())));
    if (topLeft != fitted.topLeft())
        window.move(topLeft);
}

// Fits the window again when it moves to another screen, or when its screen's available area
// changes (a resolution, a panel), for as long as the window lives.
class ScreenFollower : public QObject {
public:
    static constexpr const char* Name = "lockscopeScreenFollower";

    explicit ScreenFollower(QWidget& window)
        : QObject(&window)
        , window_(window) {
        setObjectName(Name);
        connect(window.windowHandle(), &QWindow::screenChanged, this, &ScreenFollower::follow);
        follow(window.windowHandle()->screen());
    }

private:
    void follow(QScreen* screen) {
        disconnect(geometry_);
        if (!screen)
            return;
        geometry_ =
            connect(screen, &QScreen::availableGeometryChanged, this, [this] { fitNow(window_); });
        fitNow(window_);
    }

    QWidget& window_;
    QMetaObject::Connection geometry_;
};

void fitOnScreenChanges(QWidget& window) {
    // One follower a window, however often it is fitted.
    if (window.windowHandle() &&
        !window.findChild<QObject*>(ScreenFollower::Name, Qt::FindDirectChildrenOnly))
        new ScreenFollower(window);
}

// A window not shown yet has no frame: it is fitted again once shown, frame included.
class FitWhenShown : public QObject {
public:
    using QObject::QObject;

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Show) {
            auto* window = static_cast<QWidget*>(watched);
            window->removeEventFilter(this);
            // Once the window system has placed it and told us its frame.
            QTimer::singleShot(0, window, [window] {
                fitNow(*window);
                fitOnScreenChanges(*window);
            });
            deleteLater();
        }
        return false;
    }
};

} // namespace

void fitToScreen(QWidget& window) {
    fitNow(window);
    if (window.isVisible())
        fitOnScreenChanges(window);
    else
        window.installEventFilter(new FitWhenShown(&window));
}

} // namespace lockscope
