#pragma once

#include "app/core/lock_history.h"
#include "app/core/recording_inbox.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <vector>

namespace lockscope {

class LockHistoryStore;

// Writes what a LockRecordingFeed hands it into a LockHistoryStore, on the thread it lives on
// (never a GUI thread: a commit waits on the disk), committing every `commitEvery` and at the
// end (the store's own batch limit commits sooner under load). The first failure (a full disk, a
// file turned read-only) is told once by failed(); what was committed before it stays in the file.
class LockRecorder : public QObject {
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds commitEvery{200};

    explicit LockRecorder(std::unique_ptr<LockHistoryStore> store, QObject* parent = nullptr);
    ~LockRecorder() override; // what was handed over is written, and the store commits it

    // From any thread (a feed, on the client's): written at the next commit, in the order
    // handed over. Only the first batch since the last commit wakes the recorder's thread.
    void handOver(RecordingBatch batch);
    // Each of these runs on the recorder's thread.
    void record(const std::vector<etcd::LockEvent>& events);
    void record(const HistoryGap& gap);
    void record(const std::vector<HistoryAnomaly>& anomalies);
    void record(const LiveCheckpoint& checkpoint);
    // Writes what was handed over and commits now: true when everything recorded so far is in
    // the file.
    bool commit();
    // Retention (LockHistoryStore::prune), once what waits is committed; a failure is told as
    // a write's is.
    void prune(std::chrono::system_clock::time_point keepSince, int64_t maxBytes);
    const LockHistoryStore& store() const { return *store_; }

signals:
    void failed(const QString& message);

private:
    // Starts the commit timer after a write; says the failure once.
    void wrote(bool ok);
    // Starts the commit timer unless it runs.
    void commitSoon();
    // Writes each of `entries` (events, anomalies) until one fails.
    template <typename Entries> void writeEach(const Entries& entries);
    void tellFailure(); // once
    void writeHandedOver();

    std::unique_ptr<LockHistoryStore> store_;
    RecordingInbox inbox_;
    QTimer commitTimer_;
    bool failed_ = false;
};

} // namespace lockscope
