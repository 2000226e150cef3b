#pragma once

#include "etcdclient/detail/queue_handoff.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <utility>

namespace lockscope {

namespace detail {

// Marks, for ThreadSanitizer, the handoffs of a posted task between threads: Qt's event queue
// orders them with locks TSan cannot see in an uninstrumented Qt. Moving the mark (the last
// member of the posted task, so the last thing Qt's slot object constructs) hands everything
// written so far over; the application's thread takes it before running the task and hands it
// back after, for whichever thread drops Qt's last reference and destroys the task.
class PostedMark {
public:
    PostedMark() = default;
    PostedMark(PostedMark&&) noexcept { etcd::detail::handOver(this); }
    PostedMark(const PostedMark&) { etcd::detail::handOver(this); }
    PostedMark& operator=(const PostedMark&) = delete;
    ~PostedMark() { etcd::detail::takeOver(this); }
    void take() { etcd::detail::takeOver(this); }
    void giveBack() { etcd::detail::handOver(this); }
};

template <class Target, class Task> struct PostedTask {
    QPointer<Target> target;
    Task task;
    PostedMark mark;
    void operator()() {
        mark.take();
        if (target)
            task(target.data());
        mark.giveBack();
    }
};

} // namespace detail

// Runs `task(target)` later on the application's thread, from any thread (typically an
// etcd::Client callback), unless `target` has been destroyed by then: a late reply to a closed
// window is dropped. The call is queued on the application object, which outlives every window,
// so nothing is ever posted to an object that may be mid-destruction on another thread; the
// QPointer is only tested on the application's thread.
template <class Target, class Task> void postGuarded(QPointer<Target> target, Task task) {
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        detail::PostedTask<Target, Task>{std::move(target), std::move(task), {}},
        Qt::QueuedConnection);
}

// The same on `target`'s own thread (a worker's object), queued on `target` itself, for a caller
// that keeps `target` alive until its last post is made: `target` may go before the task runs.
template <class Target, class Task> void postToOwnThread(Target* target, Task task) {
    QMetaObject::invokeMethod(
        target, detail::PostedTask<Target, Task>{QPointer<Target>(target), std::move(task), {}},
        Qt::QueuedConnection);
}

} // namespace lockscope
