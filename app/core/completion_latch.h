#pragma once

#include <functional>
#include <memory>
#include <mutex>

namespace lockscope {

// Runs `done` once, after seal(done) said no more work will be added and every piece of work
// handed a callback by add() has called it: "every release was answered". Thread-safe; `done`
// runs on whichever thread finished last (in seal() itself when nothing is pending).
class CompletionLatch : public std::enable_shared_from_this<CompletionLatch> {
public:
    static std::shared_ptr<CompletionLatch> create();

    // One more piece of work; the returned callback marks it finished (call it once).
    std::function<void()> add();
    // Call once.
    void seal(std::function<void()> done);

private:
    CompletionLatch() = default;
    void finishOne();

    std::mutex mutex_;
    std::function<void()> done_;
    int pending_ = 1; // seal() holds one, so nothing finishes before it
};

} // namespace lockscope
