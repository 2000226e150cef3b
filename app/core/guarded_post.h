#pragma once

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <utility>

namespace lockscope {

// Runs `task(target)` later on the application's thread, from any thread (typically an
// etcd::Client callback), unless `target` has been destroyed by then: a late reply to a closed
// window is dropped. The call is queued on the application object, which outlives every window,
// so nothing is ever posted to an object that may be mid-destruction on another thread; the
// QPointer is only tested on the application's thread.
template <class Target, class Task> void postGuarded(QPointer<Target> target, Task task) {
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [target = std::move(target), task = std::move(task)]() mutable {
            if (target)
                task(target.data());
        },
        Qt::QueuedConnection);
}

} // namespace lockscope
