#pragma once

#include <QThread>
#include <chrono>
#include <memory>

namespace lockscope {

// The thread the desktop's recordings write on (WatchRecording): one for a window's life, so a
// recording that a new connection ends finishes there, in order, while the next one begins.
class RecordingThread {
public:
    // How long its end waits for the last commits: on a disk that hangs longer the thread is
    // left to finish alone (what it had committed before stays).
    static constexpr std::chrono::seconds FinalCommitWait{5};

    RecordingThread(); // started
    // Lets everything posted to the thread before run (the recordings' last commits), then ends
    // it: the one wait of a GUI thread on the disk, when the window goes.
    ~RecordingThread();
    RecordingThread(const RecordingThread&) = delete;
    RecordingThread& operator=(const RecordingThread&) = delete;

    QThread* thread() const { return thread_.get(); }

private:
    std::unique_ptr<QThread> thread_;
    std::unique_ptr<QObject> context_; // lives on the thread: its end is queued behind the rest
};

} // namespace lockscope
