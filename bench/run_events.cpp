#include "run_events.h"

#include <QEventLoop>
#include <QTimer>

namespace lockscope::bench {

void runEventsUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    QEventLoop loop;
    QTimer check;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done() || std::chrono::steady_clock::now() >= deadline)
            loop.quit();
    });
    check.start(10);
    loop.exec();
}

void runEventsFor(std::chrono::milliseconds time) {
    QEventLoop loop;
    QTimer::singleShot(time, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace lockscope::bench
