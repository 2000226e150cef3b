#include "app/core/recording_thread.h"

#include "app/core/guarded_post.h"

namespace lockscope {

RecordingThread::RecordingThread()
    : thread_(std::make_unique<QThread>())
    , context_(std::make_unique<QObject>()) {
    thread_->setObjectName("recording");
    context_->moveToThread(thread_.get());
    thread_->start();
}

RecordingThread::~RecordingThread() {
    // Queued, not quit() at once: quit() would end the thread's loop before the calls already
    // posted to it (the last commits) ran.
    QThread* thread = thread_.get();
    postToOwnThread(context_.get(), [thread](QObject*) { thread->quit(); });
    if (thread_->wait(FinalCommitWait))
        return;
    // Still writing: destroying a running QThread would abort the program.
    (void)thread_.release();
    (void)context_.release();
}

} // namespace lockscope
