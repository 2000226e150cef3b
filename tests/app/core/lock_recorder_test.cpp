// LockRecorder on a real SQLite file: what a feed hands over from another thread is in the file
// after the commit timer's commit, and whatever else commits (commit(), prune(), the destructor)
// writes what waits first, in the order handed over.
#include "app/core/lock_history_store.h"
#include "app/core/lock_recorder.h"
#include "lock_test_data.h"
#include "support/qtest_registry.h"

#include <QTemporaryDir>
#include <QTest>
#include <thread>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

RecordingBatch eventsAt(std::initializer_list<int64_t> revisions) {
    RecordingBatch batch;
    for (int64_t revision : revisions)
        batch.events.push_back(test::enqueuedEvent(revision));
    return batch;
}

// The revisions of the events the file holds, in the recording's order; {-1} when unreadable.
std::vector<int64_t> recordedRevisions(const QString& path) {
    QString problem;
    const auto store = LockHistoryStore::openForReading(path, problem);
    const auto entries = store ? store->entries({}) : std::nullopt;
    if (!entries)
        return {-1};
    std::vector<int64_t> revisions;
    for (const auto& entry : *entries)
        if (const auto* event = std::get_if<etcd::LockEvent>(&entry))
            revisions.push_back(event->revision);
    return revisions;
}

} // namespace

class LockRecorderTest : public QObject {
    Q_OBJECT
private slots:
    void init() { path = dir.filePath(QString(QTest::currentTestFunction()) + ".db"); }

    void whatAFeedHandsOverIsInTheFileAfterTheTimersCommit() {
        auto recorder = open();
        QVERIFY(recorder);
        // From another thread, as the client's: the first batch wakes the recorder.
        std::thread feed([&] {
            recorder->handOver(eventsAt({1, 2}));
            recorder->handOver(eventsAt({3}));
        });
        feed.join();
        QCOMPARE(recordedRevisions(path), std::vector<int64_t>{});
        QTRY_COMPARE_WITH_TIMEOUT(recordedRevisions(path), (std::vector<int64_t>{1, 2, 3}), 5000);
        // After that commit, the next batch wakes it again.
        recorder->handOver(eventsAt({4}));
        QTRY_COMPARE_WITH_TIMEOUT(recordedRevisions(path), (std::vector<int64_t>{1, 2, 3, 4}),
                                  5000);
    }

    void commitWritesWhatWaitsFirst() {
        auto recorder = open();
        QVERIFY(recorder);
        recorder->handOver(eventsAt({1}));
        recorder->handOver(eventsAt({2}));
        QVERIFY(recorder->commit()); // before the wake-up's post has run
        QCOMPARE(recordedRevisions(path), (std::vector<int64_t>{1, 2}));
    }

    void pruneWritesWhatWaitsFirst() {
        auto recorder = open();
        QVERIFY(recorder);
        recorder->handOver(eventsAt({1}));
        // Nothing old to delete; what waits is written and committed, not left behind a timer
        // that prune stops.
        recorder->prune(std::chrono::system_clock::now() - 24h, int64_t(1) << 40);
        QCOMPARE(recordedRevisions(path), (std::vector<int64_t>{1}));
        recorder->handOver(eventsAt({2}));
        QTRY_COMPARE_WITH_TIMEOUT(recordedRevisions(path), (std::vector<int64_t>{1, 2}), 5000);
    }

    void theDestructorWritesWhatWaits() {
        auto recorder = open();
        QVERIFY(recorder);
        recorder->handOver(eventsAt({1}));
        recorder->handOver(eventsAt({2}));
        recorder.reset();
        QCOMPARE(recordedRevisions(path), (std::vector<int64_t>{1, 2}));
    }

private:
    std::unique_ptr<LockRecorder> open() {
        QString problem;
        auto store = LockHistoryStore::openForWriting(path, "127.0.0.1:2379", "/locks/", problem);
        if (!store)
            qWarning("%s", qPrintable(problem));
        return store ? std::make_unique<LockRecorder>(std::move(store)) : nullptr;
    }

    QTemporaryDir dir;
    QString path;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockRecorderTest)
#include "lock_recorder_test.moc"
