#pragma once
// Answers the modal dialogs a desktop test opens with exec(): a confirmation, a file dialog.

#include <QApplication>
#include <QDeadlineTimer>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>

namespace lockscope::test {

// Runs `handle` on the next application-modal widget once one is up (a dialog opened with
// exec() from the action about to be triggered), polling the event loop that exec() runs.
// `handled` is set once it ran; nothing runs after `timeoutMs`, nor once the returned timer
// is gone (keep it no longer than what `handle` and `handled` refer to).
[[nodiscard]] inline std::unique_ptr<QTimer> whenModal(std::function<void(QWidget*)> handle,
                                                       bool& handled, int timeoutMs = 5000) {
    handled = false;
    auto poll = std::make_unique<QTimer>();
    poll->setInterval(20);
    QObject::connect(poll.get(), &QTimer::timeout, poll.get(),
                     [timer = poll.get(), handle, &handled, deadline = QDeadlineTimer(timeoutMs)] {
                         QWidget* modal = QApplication::activeModalWidget();
                         if (modal && modal->isVisible()) {
                             timer->stop();
                             handled = true;
                             handle(modal);
                         } else if (deadline.hasExpired()) {
                             timer->stop();
                         }
                     });
    poll->start();
    return poll;
}

} // namespace lockscope::test
