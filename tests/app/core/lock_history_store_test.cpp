// LockHistoryStore on real SQLite files in a temporary folder: what is written reads back exact
// (bytes, times, order), batches and reopening keep everything, and files it must not record
// into are refused with the reason.
#include "app/core/lock_history_store.h"
#include "support/qtest_registry.h"

#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

const std::string prefix = "/locks/";
const auto t0 = std::chrono::system_clock::time_point(1'795'000'000'000ms);

etcd::LockEvent lockEvent(etcd::LockEventKind kind, const std::string& key, int64_t revision) {
    etcd::LockEvent e{};
    e.kind = kind;
    e.lock = "/locks/\xff"
             "job";
    e.key = e.lock + "/" + key;
    e.lease = 0x694d0000 + revision;
    e.revision = revision;
    e.createRevision = revision - 1;
    e.observedAt = t0 + std::chrono::milliseconds(revision * 250);
    e.recipe = etcd::QueueKind::RwMutex;
    return e;
}

// A file that SQLite alone writes: `pragmas` then a table, as another program's file would be.
void writeSqlite(const QString& path, const QStringList& pragmas) {
    {
        QSqlDatabase db = QSqlDatabase::addDatabase("QSQLITE", "other");
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery query(db);
        for (const QString& pragma : pragmas)
            QVERIFY(query.exec(pragma));
        QVERIFY(query.exec("CREATE TABLE other(a)"));
        db.close();
    }
    QSqlDatabase::removeDatabase("other");
}

} // namespace

class LockHistoryStoreTest : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(dir.isValid()); }

    void eventsGapsAndCheckpointsReadBackExactInOrder() {
        const QString path = dir.filePath("history.db");
        QString problem;
        etcd::LockEvent acquired = lockEvent(etcd::LockEventKind::Acquired, "a", 7);
        acquired.waited = 1500ms;
        acquired.atLeast = true;
        etcd::LockEvent released = lockEvent(etcd::LockEventKind::Released, "a", 9);
        released.held = 42ms;
        released.heldAtMost = 2042ms;
        released.recovered = true;
        const HistoryGap gap{t0 + 1s, t0 + 3s, 8, "no answer from etcd for 2.0 s"};
        const HistoryCheckpoint checkpoint{9,
                                           t0 + 4s,
                                           "resync",
                                           {{"/locks/\xff"
                                             "job",
                                             "/locks/\xff"
                                             "job/b\x00"
                                             "c",
                                             5, 4, 6, etcd::QueueKind::Election, true}}};
        {
            auto store = LockHistoryStore::openForWriting(path, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            QVERIFY(store->write(acquired));
            QVERIFY(store->write(gap));
            QVERIFY(store->write(released));
            QVERIFY(store->write(checkpoint));
            QVERIFY(store->commit());
        }
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        QCOMPARE(reader->prefix(), prefix);
        const auto entries = reader->entries({});
        QVERIFY2(entries, qPrintable(reader->error()));
        QCOMPARE(entries->size(), std::size_t(3));
        const auto& first = std::get<etcd::LockEvent>((*entries)[0]);
        QCOMPARE(first.kind, etcd::LockEventKind::Acquired);
        QCOMPARE(first.lock, acquired.lock);
        QCOMPARE(first.key, acquired.key);
        QCOMPARE(first.lease, acquired.lease);
        QCOMPARE(first.revision, int64_t(7));
        QCOMPARE(first.createRevision, int64_t(6));
        QVERIFY(first.observedAt == acquired.observedAt);
        QCOMPARE(first.waited, std::optional(1500ms));
        QCOMPARE(first.held, std::optional<std::chrono::milliseconds>());
        QVERIFY(first.atLeast);
        QCOMPARE(first.recipe, etcd::QueueKind::RwMutex);
        const auto& readGap = std::get<HistoryGap>((*entries)[1]);
        QVERIFY(readGap.since == gap.since && readGap.until == gap.until);
        QCOMPARE(readGap.revision, int64_t(8));
        QCOMPARE(readGap.reason, gap.reason);
        const auto& last = std::get<etcd::LockEvent>((*entries)[2]);
        QCOMPARE(last.held, std::optional(42ms));
        QCOMPARE(last.heldAtMost, std::optional(2042ms));
        QCOMPARE(last.waitedAtMost, std::optional<std::chrono::milliseconds>());
        QVERIFY(last.recovered);
        const auto checkpoints = reader->checkpoints();
        QVERIFY2(checkpoints, qPrintable(reader->error()));
        QCOMPARE(checkpoints->size(), std::size_t(1));
        QCOMPARE(checkpoints->front().revision, int64_t(9));
        QCOMPARE(checkpoints->front().reason, std::string("resync"));
        QCOMPARE(checkpoints->front().keys.size(), std::size_t(1));
        const HistoryKey& key = checkpoints->front().keys.front();
        QCOMPARE(key.key, checkpoint.keys.front().key); // the NUL byte kept
        QCOMPARE(key.key.size(), checkpoint.keys.front().key.size());
        QCOMPARE(key.recipe, etcd::QueueKind::Election);
        QVERIFY(key.holds);
        QCOMPARE(key.modRevision, int64_t(6));
    }

    void aFilterKeepsOneLockAndASpanButEveryGapInIt() {
        const QString path = dir.filePath("filtered.db");
        QString problem;
        {
            auto store = LockHistoryStore::openForWriting(path, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            for (int64_t revision = 2; revision <= 10; ++revision) {
                etcd::LockEvent e = lockEvent(etcd::LockEventKind::Enqueued, "k", revision);
                if (revision % 2 == 0)
                    e.lock = "/locks/other";
                QVERIFY(store->write(e));
            }
            QVERIFY(store->write(HistoryGap{t0 + 1s, t0 + 2s, 6, "compacted"}));
            QVERIFY(store->write(HistoryGap{t0 + 10s, t0 + 11s, 20, "later"}));
        } // committed by the destructor
        auto reader = LockHistoryStore::openForReading(path, problem);
        QVERIFY2(reader, qPrintable(problem));
        LockHistoryStore::Filter filter;
        filter.lock = "/locks/other";
        filter.sinceRevision = 4;
        filter.untilRevision = 8;
        const auto byRevision = reader->entries(filter);
        QVERIFY(byRevision);
        std::vector<int64_t> revisions;
        for (const auto& entry : *byRevision)
            revisions.push_back(std::visit([](const auto& e) { return e.revision; }, entry));
        QCOMPARE(revisions, (std::vector<int64_t>{4, 6, 8, 6})); // the gap comes last: written so
        filter = {};
        filter.since = t0 + 1500ms;
        filter.until = t0 + 2s;
        const auto byTime = reader->entries(filter);
        QVERIFY(byTime);
        revisions.clear();
        for (const auto& entry : *byTime)
            revisions.push_back(std::visit([](const auto& e) { return e.revision; }, entry));
        QCOMPARE(revisions, (std::vector<int64_t>{6, 7, 8, 6})); // 1.5 s to 2 s, and the gap
    }

    void aBatchLargerThanTheLimitCommitsOnItsOwnAndReopeningAppends() {
        const QString path = dir.filePath("batches.db");
        QString problem;
        const int count = LockHistoryStore::batchRows + 10;
        {
            auto store = LockHistoryStore::openForWriting(path, prefix, problem);
            QVERIFY2(store, qPrintable(problem));
            for (int i = 0; i < count; ++i)
                QVERIFY(store->write(lockEvent(etcd::LockEventKind::Enqueued, "k", 2 + i)));
            // Before any commit() of ours, the first batch is readable by another connection.
            auto reader = LockHistoryStore::openForReading(path, problem);
            QVERIFY2(reader, qPrintable(problem));
            const auto seen = reader->entries({});
            QVERIFY(seen);
            QCOMPARE(static_cast<int>(seen->size()), LockHistoryStore::batchRows);
        }
        auto again = LockHistoryStore::openForWriting(path, prefix, problem);
        QVERIFY2(again, qPrintable(problem));
        QVERIFY(again->lastWrittenAt() ==
                lockEvent(etcd::LockEventKind::Enqueued, "k", 2 + count - 1).observedAt);
        QVERIFY(again->write(lockEvent(etcd::LockEventKind::Acquired, "k", 2 + count)));
        QVERIFY(again->commit());
        const auto all = again->entries({});
        QVERIFY(all);
        QCOMPARE(static_cast<int>(all->size()), count + 1);
        QCOMPARE(std::get<etcd::LockEvent>(all->back()).kind, etcd::LockEventKind::Acquired);
    }

    void filesItMustNotRecordIntoAreRefusedWithTheReason() {
        QString problem;
        QVERIFY(!LockHistoryStore::openForReading(dir.filePath("missing.db"), problem));
        QVERIFY2(problem.contains("no such file"), qPrintable(problem));

        const QString garbage = dir.filePath("garbage.db");
        QFile file(garbage);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        for (bool writing : {false, true}) {
            problem.clear();
            QVERIFY(writing ? !LockHistoryStore::openForWriting(garbage, prefix, problem)
                            : !LockHistoryStore::openForReading(garbage, problem));
            QVERIFY2(problem.contains("not a database") && problem.contains("damaged"),
                     qPrintable(problem));
        }
        QCOMPARE(QFile(garbage).size(), qint64(4096)); // left as it was

        const QString other = dir.filePath("other.db");
        writeSqlite(other, {});
        problem.clear();
        QVERIFY(!LockHistoryStore::openForWriting(other, prefix, problem));
        QVERIFY2(problem.contains("not a LockScope recording"), qPrintable(problem));

        const QString newer = dir.filePath("newer.db");
        writeSqlite(newer,
                    {"PRAGMA application_id = 1280004931",
                     QString("PRAGMA user_version = %1").arg(LockHistoryStore::schemaVersion + 1)});
        for (bool writing : {false, true}) {
            problem.clear();
            QVERIFY(writing ? !LockHistoryStore::openForWriting(newer, prefix, problem)
                            : !LockHistoryStore::openForReading(newer, problem));
            QVERIFY2(problem.contains("newer LockScope"), qPrintable(problem));
        }

        const QString recorded = dir.filePath("recorded.db");
        QVERIFY(LockHistoryStore::openForWriting(recorded, prefix, problem));
        problem.clear();
        QVERIFY(!LockHistoryStore::openForWriting(recorded, "/elsewhere/", problem));
        QVERIFY2(problem.contains("records the locks under /locks/, not /elsewhere/"),
                 qPrintable(problem));
    }

private:
    QTemporaryDir dir;
};

LOCKSCOPE_QTEST_GUILESS_MAIN(LockHistoryStoreTest)
#include "lock_history_store_test.moc"
