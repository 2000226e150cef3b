#include "app/core/completion_latch.h"

namespace lockscope {

std::shared_ptr<CompletionLatch> CompletionLatch::create() {
    return std::shared_ptr<CompletionLatch>(new CompletionLatch);
}

std::function<void()> CompletionLatch::add() {
    {
        std::lock_guard lock(mutex_);
        ++pending_;
    }
    return [self = shared_from_this()] { self->finishOne(); };
}

void CompletionLatch::seal(std::function<void()> done) {
    {
        std::lock_guard lock(mutex_);
        done_ = std::move(done);
    }
    finishOne();
}

void CompletionLatch::finishOne() {
    std::function<void()> done;
    {
        std::lock_guard lock(mutex_);
        if (--pending_ != 0)
            return;
        done = std::move(done_);
    }
    if (done)
        done();
}

} // namespace lockscope
